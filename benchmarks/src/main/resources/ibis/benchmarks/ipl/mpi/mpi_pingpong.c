/*
 * The C peer of `bin/ibis-bench ipl --impl mpi` (ibis.benchmarks.ipl.MpiSuite): an ordinary MPI
 * program, compiled by the suite with the MPI's compiler wrapper, run as 2 ranks by mpirun.
 *
 *   mpi_pingpong lat N        N round trips of a 1-byte message (after N untimed ones);
 *                             rank 0 prints "RESULT lat <one-way microseconds>"
 *   mpi_pingpong bw N SIZE    N messages of SIZE bytes from rank 0 to rank 1, one MPI_Send each
 *                             (after N untimed ones), the last one answered with 1 byte;
 *                             rank 0 prints "RESULT bw <10^6 bytes per second>"
 *
 * Every message is checked: a round trip's byte comes back as sent; rank 1 checks the first and
 * last byte of each streamed message. A mismatch aborts the job.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "mpi_pingpong: %s\n", what);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

static double latency(int rank, long n)
{
    unsigned char b = 0;
    double start = 0;
    long warm = n;
    for (long i = -warm; i < n; i++) {
        if (i == 0) {
            start = MPI_Wtime();
        }
        if (rank == 0) {
            unsigned char sent = (unsigned char) i;
            b = sent;
            MPI_Send(&b, 1, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(&b, 1, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            check(b == sent, "round trip returned another byte");
        } else {
            MPI_Recv(&b, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&b, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - start) * 1e6 / n / 2;
}

static double bandwidth(int rank, long n, int size)
{
    unsigned char *buf = malloc(size);
    unsigned char ack = 0;
    double start = 0;
    long warm = n;
    check(buf != NULL, "out of memory");
    memset(buf, 0, size);
    for (long i = -warm; i < n; i++) {
        if (i == 0) {
            start = MPI_Wtime();
        }
        if (rank == 0) {
            buf[0] = (unsigned char) i;
            buf[size - 1] = (unsigned char) (i * 7);
            MPI_Send(buf, size, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        } else {
            MPI_Recv(buf, size, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            check(buf[0] == (unsigned char) i && buf[size - 1] == (unsigned char) (i * 7), "wrong message");
        }
        if (i == -1 || i == n - 1) {
            /* the end of the warm-up and of the timed part: rank 1 has everything */
            if (rank == 0) {
                MPI_Recv(&ack, 1, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Send(&ack, 1, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
            }
        }
    }
    double seconds = MPI_Wtime() - start;
    free(buf);
    return (double) n * size / seconds / 1e6;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check(size == 2, "needs exactly 2 ranks");
    check(argc >= 3, "usage: mpi_pingpong lat N | bw N SIZE");
    long n = atol(argv[2]);
    check(n > 0, "N must be positive");
    if (strcmp(argv[1], "lat") == 0) {
        double us = latency(rank, n);
        if (rank == 0) {
            printf("RESULT lat %.4f\n", us);
        }
    } else {
        check(argc >= 4 && strcmp(argv[1], "bw") == 0, "usage: mpi_pingpong lat N | bw N SIZE");
        int bytes = atoi(argv[3]);
        check(bytes > 0, "SIZE must be positive");
        double mbs = bandwidth(rank, n, bytes);
        if (rank == 0) {
            printf("RESULT bw %.1f\n", mbs);
        }
    }
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
