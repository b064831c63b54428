package ibis.rmi.testing;

import java.io.Serializable;

/** A package-private parameter and result class of {@link Ledger}. */
final class Entry implements Serializable {
    private static final long serialVersionUID = 1L;
    final String what;
    final int amount;

    Entry(String what, int amount) {
        this.what = what;
        this.amount = amount;
    }

    @Override
    public String toString() {
        return what + "=" + amount;
    }
}
