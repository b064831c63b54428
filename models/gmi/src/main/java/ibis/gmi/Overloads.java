package ibis.gmi;

/** The failure of a user class's overload that the runtime called but the class never overrode. */
final class Overloads {

    private Overloads() {
    }

    static UnsupportedOperationException notOverridden(Object user, String overload) {
        return new UnsupportedOperationException(user.getClass().getName() + " does not override " + overload
                + ", which this group method needs");
    }
}
