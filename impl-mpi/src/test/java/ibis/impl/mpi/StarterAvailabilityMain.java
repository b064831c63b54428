package ibis.impl.mpi;

/** Prints the {@code mpi} starter's unavailable reason in a fresh JVM (for {@link StarterAvailabilityTest}). */
public final class StarterAvailabilityMain {

    private StarterAvailabilityMain() {
    }

    /** Prints {@code reason=<reason or null>}. */
    public static void main(String[] args) {
        System.out.println("reason=" + new MpiIbisStarter().unavailableReason());
    }
}
