package ibis.rmi.testing;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/** A serializable object graph node. */
public class Payload implements Serializable {
    private static final long serialVersionUID = 1L;
    public int value;
    public String name;
    public long[] numbers;
    public Payload next;

    public Payload() {
    }

    public Payload(int value, String name, long[] numbers) {
        this.value = value;
        this.name = name;
        this.numbers = numbers;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Payload)) {
            return false;
        }
        Payload p = (Payload) o;
        return value == p.value && Objects.equals(name, p.name) && Arrays.equals(numbers, p.numbers)
                && (next == null) == (p.next == null);
    }

    @Override
    public int hashCode() {
        return value;
    }
}
