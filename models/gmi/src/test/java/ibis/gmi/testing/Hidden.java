package ibis.gmi.testing;

import ibis.gmi.GroupInterface;

/** A group interface that is not public, as earlier GMI programs declare theirs (seed 004, Fig. 5). */
interface Hidden extends GroupInterface {

    /** @return x * 2 + the member's rank */
    int twice(int x);

    /** @return the member's rank */
    int whoAmI();
}
