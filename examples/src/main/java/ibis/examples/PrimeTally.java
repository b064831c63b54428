package ibis.examples;

/**
 * The number and the sum of the primes in a range: the partial result of a {@link PoolDemo} worker.
 *
 * @param count how many primes
 * @param sum their sum
 */
record PrimeTally(long count, long sum) {

    /** Counts the primes in [from, to) by trial division (the workers' deliberately plain work). */
    static PrimeTally ofRange(long from, long to) {
        long count = 0;
        long sum = 0;
        for (long n = Math.max(from, 2); n < to; n++) {
            if (isPrime(n)) {
                count++;
                sum += n;
            }
        }
        return new PrimeTally(count, sum);
    }

    /** Counts the primes below {@code limit} with a sieve: the master's independent check. */
    static PrimeTally bySieve(long limit) {
        if (limit > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("limit too large for the sieve: " + limit);
        }
        int n = (int) Math.max(limit, 0);
        boolean[] composite = new boolean[Math.max(n, 2)];
        long count = 0;
        long sum = 0;
        for (int i = 2; i < n; i++) {
            if (!composite[i]) {
                count++;
                sum += i;
                for (long j = (long) i * i; j < n; j += i) {
                    composite[(int) j] = true;
                }
            }
        }
        return new PrimeTally(count, sum);
    }

    static boolean isPrime(long n) {
        if (n < 2) {
            return false;
        }
        if (n % 2 == 0) {
            return n == 2;
        }
        for (long d = 3; d * d <= n; d += 2) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }

    PrimeTally plus(PrimeTally other) {
        return new PrimeTally(count + other.count, sum + other.sum);
    }
}
