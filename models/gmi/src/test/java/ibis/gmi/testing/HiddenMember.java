package ibis.gmi.testing;

import ibis.gmi.GroupMember;

/** A member of the non-public group interface {@link Hidden}, itself not public either. */
class HiddenMember extends GroupMember implements Hidden {

    @Override
    public int twice(int x) {
        return x * 2 + getRank();
    }

    @Override
    public int whoAmI() {
        return getRank();
    }
}
