package ibis.gmi.impl;

/** A complete group as every process sees it: id, name, interface, and the process of each rank. */
final class GroupInfo {
    final int id;
    final String name;
    final MethodTable table;
    final int size;
    final int[] processOf;

    GroupInfo(int id, String name, MethodTable table, int[] processOf) {
        this.id = id;
        this.name = name;
        this.table = table;
        this.size = processOf.length;
        this.processOf = processOf;
    }
}
