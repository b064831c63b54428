/*
 * ibis_mpi.c: the JNI glue of ibis.impl.mpi.MpiNative over the MPI C API (library ibis-mpi for
 * Open MPI, ibis-mpi-mpich for MPICH: the same source compiled against each mpi.h).
 *
 * Communicator: init duplicates MPI_COMM_WORLD (MPI_Comm_dup), so that Ibis' messages never match
 * an application's own MPI messages, and sets MPI_ERRORS_RETURN on the duplicate: an error is a
 * return code (MpiNative.errorString names it), not an abort of the job.
 *
 * Memory: Java passes addresses of direct buffers (MpiNative.address, looked up once per buffer).
 * A request is an MPI_Request stored at an address Java owns (a slot of requestSize() bytes in a
 * direct buffer): MPI_Request is a pointer in Open MPI and an int in MPICH, and this way neither
 * Java nor the glue allocates per message. A matched message (MPI_Message, from improbe) is kept the
 * same way (messageSize() bytes). A status is written as four ints at an address Java
 * owns: source, tag, count (bytes), cancelled (0/1).
 *
 * Ranks and tags are MPI's; Java's ANY_SOURCE and ANY_TAG (-1) map to MPI's constants here, since
 * those differ between MPI libraries (MPICH's MPI_ANY_SOURCE is -2).
 *
 * Return convention of the hot-path calls: MPI_SUCCESS (0), 1 for "done"/"found" where a call
 * tests, or the negated MPI error code. Hot-path functions (isend, isendBulkTest, recvBulk, irecv,
 * irecvTest, test, await, iprobe, improbe, mrecv, imrecv, cancel) take primitives only: no JNI call, no Java object, no malloc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jni.h>
#include <mpi.h>

#include "ibis_impl_mpi_MpiNative.h"

#ifndef IBIS_MPI_FLAVOUR
#error "build.sh defines IBIS_MPI_FLAVOUR (openmpi or mpich)"
#endif

/* MpiNative's status layout. */
_Static_assert(ibis_impl_mpi_MpiNative_STATUS_BYTES == 4 * sizeof(int32_t), "MpiNative.STATUS_BYTES");

#define PTR(a) ((void *)(intptr_t)(a))
#define REQUEST(a) ((MPI_Request *)(intptr_t)(a))
#define MESSAGE(a) ((MPI_Message *)(intptr_t)(a))

/* The duplicate of MPI_COMM_WORLD all of Ibis' traffic uses; MPI_COMM_NULL outside init..finalize. */
static MPI_Comm ibis_comm = MPI_COMM_NULL;
/*
 * A second duplicate for the bytes of bulk messages (isendBulkTest, recvBulk): the receiver's
 * pre-posted wildcard receives on ibis_comm never match them.
 */
static MPI_Comm ibis_bulk_comm = MPI_COMM_NULL;

/* ------------------------------------------------------------------------------------ helpers */

static void throw_io(JNIEnv *env, const char *call, int code)
{
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    char message[MPI_MAX_ERROR_STRING + 128];
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) {
        snprintf(text, sizeof text, "MPI error %d", code);
    }
    snprintf(message, sizeof message, "%s failed: %s", call, text);
    jclass c = (*env)->FindClass(env, "java/io/IOException");
    if (c != NULL) { /* else FindClass left an exception pending */
        (*env)->ThrowNew(env, c, message);
    }
}

static int to_mpi_source(jint source)
{
    return source == ibis_impl_mpi_MpiNative_ANY_SOURCE ? MPI_ANY_SOURCE : source;
}

static int to_mpi_tag(jint tag)
{
    return tag == ibis_impl_mpi_MpiNative_ANY_TAG ? MPI_ANY_TAG : tag;
}

static int from_mpi_level(int level)
{
    if (level == MPI_THREAD_MULTIPLE) {
        return ibis_impl_mpi_MpiNative_THREAD_MULTIPLE;
    }
    if (level == MPI_THREAD_SERIALIZED) {
        return ibis_impl_mpi_MpiNative_THREAD_SERIALIZED;
    }
    if (level == MPI_THREAD_FUNNELED) {
        return ibis_impl_mpi_MpiNative_THREAD_FUNNELED;
    }
    return ibis_impl_mpi_MpiNative_THREAD_SINGLE;
}

static int to_mpi_level(jint level)
{
    switch (level) {
    case ibis_impl_mpi_MpiNative_THREAD_MULTIPLE: return MPI_THREAD_MULTIPLE;
    case ibis_impl_mpi_MpiNative_THREAD_SERIALIZED: return MPI_THREAD_SERIALIZED;
    case ibis_impl_mpi_MpiNative_THREAD_FUNNELED: return MPI_THREAD_FUNNELED;
    default: return MPI_THREAD_SINGLE;
    }
}

/* Writes source, tag, byte count and the cancelled flag of a completed operation. */
static void store_status(jlong address, MPI_Status *status)
{
    if (address == 0) {
        return;
    }
    int32_t *out = PTR(address);
    int count = 0;
    int cancelled = 0;
    MPI_Get_count(status, MPI_BYTE, &count);
    MPI_Test_cancelled(status, &cancelled);
    out[0] = status->MPI_SOURCE;
    out[1] = status->MPI_TAG;
    out[2] = count;
    out[3] = cancelled != 0;
}

/* ------------------------------------------------------------------------------------ loading */

/*
 * The JVM loads this library without RTLD_GLOBAL, so the MPI library it depends on is loaded
 * locally too; Open MPI's components (dlopen'ed plugins) then cannot see libmpi's symbols. Reopening
 * the already loaded MPI library with RTLD_GLOBAL makes them visible (Open MPI's own Java bindings
 * do the same in their JNI_OnLoad).
 */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)vm;
    (void)reserved;
    Dl_info info;
    if (dladdr((void *)&MPI_Init_thread, &info) != 0 && info.dli_fname != NULL) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    }
    return JNI_VERSION_1_8;
}

/* --------------------------------------------------------------------------- set-up (objects) */

JNIEXPORT jstring JNICALL Java_ibis_impl_mpi_MpiNative_version(JNIEnv *env, jclass c)
{
    (void)c;
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) {
        snprintf(text, sizeof text, "unknown MPI library");
    }
    /* Only the first line: MPICH's string goes on with its whole configuration. */
    char *newline = strchr(text, '\n');
    if (newline != NULL) {
        *newline = '\0';
    }
    return (*env)->NewStringUTF(env, text);
}

JNIEXPORT jstring JNICALL Java_ibis_impl_mpi_MpiNative_flavour(JNIEnv *env, jclass c)
{
    (void)c;
    return (*env)->NewStringUTF(env, IBIS_MPI_FLAVOUR);
}

/*
 * Makes *comm a duplicate of MPI_COMM_WORLD that returns errors instead of aborting the job, unless
 * it is one already; returns 0 with an IOException pending when MPI_Comm_dup fails.
 */
static int dup_world(JNIEnv *env, MPI_Comm *comm)
{
    if (*comm != MPI_COMM_NULL) {
        return 1;
    }
    int code = MPI_Comm_dup(MPI_COMM_WORLD, comm);
    if (code != MPI_SUCCESS) {
        throw_io(env, "MPI_Comm_dup", code);
        return 0;
    }
    MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
    return 1;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_init(JNIEnv *env, jclass c, jint required)
{
    (void)c;
    int initialized = 0;
    int provided = MPI_THREAD_SINGLE;
    int code;
    MPI_Initialized(&initialized);
    if (initialized) {
        code = MPI_Query_thread(&provided);
    } else {
        code = MPI_Init_thread(NULL, NULL, to_mpi_level(required), &provided);
    }
    if (code != MPI_SUCCESS) {
        throw_io(env, initialized ? "MPI_Query_thread" : "MPI_Init_thread", code);
        return -1;
    }
    if (!dup_world(env, &ibis_comm) || !dup_world(env, &ibis_bulk_comm)) {
        return -1;
    }
    return from_mpi_level(provided);
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_rank(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    int rank = -1;
    if (ibis_comm != MPI_COMM_NULL) {
        MPI_Comm_rank(ibis_comm, &rank);
    }
    return rank;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_size(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    int size = -1;
    if (ibis_comm != MPI_COMM_NULL) {
        MPI_Comm_size(ibis_comm, &size);
    }
    return size;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_tagUpperBound(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    int *value = NULL;
    int found = 0;
    if (ibis_comm == MPI_COMM_NULL || MPI_Comm_get_attr(ibis_comm, MPI_TAG_UB, &value, &found) != MPI_SUCCESS
            || !found) {
        return -1;
    }
    return *value;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_requestSize(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    return (jint)sizeof(MPI_Request);
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_messageSize(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    return (jint)sizeof(MPI_Message);
}

JNIEXPORT jlong JNICALL Java_ibis_impl_mpi_MpiNative_address(JNIEnv *env, jclass c, jobject buffer)
{
    (void)c;
    void *address = (*env)->GetDirectBufferAddress(env, buffer);
    if (address == NULL) {
        jclass e = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        if (e != NULL) {
            (*env)->ThrowNew(env, e, "not a direct buffer");
        }
        return 0;
    }
    return (jlong)(intptr_t)address;
}

JNIEXPORT jstring JNICALL Java_ibis_impl_mpi_MpiNative_errorString(JNIEnv *env, jclass c, jint code)
{
    (void)c;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    int mpi_code = code < 0 ? -code : code;
    if (MPI_Error_string(mpi_code, text, &length) != MPI_SUCCESS) {
        snprintf(text, sizeof text, "MPI error %d", mpi_code);
    }
    return (*env)->NewStringUTF(env, text);
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_finalizeMpi(JNIEnv *env, jclass c)
{
    (void)env;
    (void)c;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) {
        return MPI_SUCCESS;
    }
    if (ibis_comm != MPI_COMM_NULL) {
        MPI_Comm_free(&ibis_comm);
        ibis_comm = MPI_COMM_NULL;
    }
    if (ibis_bulk_comm != MPI_COMM_NULL) {
        MPI_Comm_free(&ibis_bulk_comm);
        ibis_bulk_comm = MPI_COMM_NULL;
    }
    int code = MPI_Finalize();
    return code == MPI_SUCCESS ? 0 : -code;
}

JNIEXPORT void JNICALL Java_ibis_impl_mpi_MpiNative_abort(JNIEnv *env, jclass c, jint code)
{
    (void)env;
    (void)c;
    MPI_Abort(MPI_COMM_WORLD, code);
}

/* --------------------------------------------------------- hot path: primitives only, no malloc */

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_isend(JNIEnv *env, jclass c, jlong address, jint length,
        jint destination, jint tag, jlong request)
{
    (void)env;
    (void)c;
    int code = MPI_Isend(PTR(address), length, MPI_BYTE, destination, tag, ibis_comm, REQUEST(request));
    return code == MPI_SUCCESS ? 0 : -code;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_isendTest(JNIEnv *env, jclass c, jlong address, jint length,
        jint destination, jint tag, jlong request)
{
    (void)env;
    (void)c;
    int code = MPI_Isend(PTR(address), length, MPI_BYTE, destination, tag, ibis_comm, REQUEST(request));
    if (code != MPI_SUCCESS) {
        return -code;
    }
    int done = 0;
    code = MPI_Test(REQUEST(request), &done, MPI_STATUS_IGNORE);
    return code == MPI_SUCCESS ? done != 0 : -code;
}

/*
 * A bulk message: its announcement (two ints, tag and length, with announce_tag) on ibis_comm, with a
 * blocking standard send (eight bytes go out eagerly, and the body is on the stack), then the bytes
 * with tag on ibis_bulk_comm (MPI_Isend, then MPI_Test). The caller keeps announcement and bytes of
 * one (destination, tag) together (MpiProcess.isendTest).
 */
JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_isendBulkTest(JNIEnv *env, jclass c, jlong address,
        jint length, jint destination, jint tag, jint announce_tag, jlong request)
{
    (void)env;
    (void)c;
    int32_t body[2] = {tag, length};
    int code = MPI_Send(body, (int)sizeof body, MPI_BYTE, destination, announce_tag, ibis_comm);
    if (code != MPI_SUCCESS) {
        return -code;
    }
    code = MPI_Isend(PTR(address), length, MPI_BYTE, destination, tag, ibis_bulk_comm, REQUEST(request));
    if (code != MPI_SUCCESS) {
        return -code;
    }
    int done = 0;
    code = MPI_Test(REQUEST(request), &done, MPI_STATUS_IGNORE);
    return code == MPI_SUCCESS ? done != 0 : -code;
}

/* Receives the bytes of an announced bulk message (MPI_Recv on ibis_bulk_comm). */
JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_recvBulk(JNIEnv *env, jclass c, jlong address, jint capacity,
        jint source, jint tag, jlong status)
{
    (void)env;
    (void)c;
    MPI_Status s;
    int code = MPI_Recv(PTR(address), capacity, MPI_BYTE, source, tag, ibis_bulk_comm, &s);
    if (code != MPI_SUCCESS) {
        return -code;
    }
    store_status(status, &s);
    return 0;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_irecv(JNIEnv *env, jclass c, jlong address, jint capacity,
        jint source, jint tag, jlong request)
{
    (void)env;
    (void)c;
    int code = MPI_Irecv(PTR(address), capacity, MPI_BYTE, to_mpi_source(source), to_mpi_tag(tag), ibis_comm,
            REQUEST(request));
    return code == MPI_SUCCESS ? 0 : -code;
}

/* MPI_Test up to polls times in a row (at least once): 1 when the request completed (its status
 * stored), 0 when not yet, or the negated MPI error code. */
static jint test_polls(jlong request, jlong status, jint polls)
{
    int done = 0;
    MPI_Status s;
    jint i = 0;
    do {
        int code = MPI_Test(REQUEST(request), &done, &s);
        if (code != MPI_SUCCESS) {
            return -code;
        }
    } while (!done && ++i < polls);
    if (done) {
        store_status(status, &s);
    }
    return done != 0;
}

/* MPI_Irecv into post_request, then MPI_Test of test_request: the landing receives' step. */
JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_irecvTest(JNIEnv *env, jclass c, jlong address, jint capacity,
        jint source, jint tag, jlong post_request, jlong test_request, jlong status)
{
    (void)env;
    (void)c;
    int code = MPI_Irecv(PTR(address), capacity, MPI_BYTE, to_mpi_source(source), to_mpi_tag(tag), ibis_comm,
            REQUEST(post_request));
    if (code != MPI_SUCCESS) {
        return -code;
    }
    return test_polls(test_request, status, 1);
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_test(JNIEnv *env, jclass c, jlong request, jlong status)
{
    (void)env;
    (void)c;
    return test_polls(request, status, 1);
}

/* MPI_Test up to polls times in a row: a waiting thread polls at MPI_Test's own pace, not at that of
 * a return to Java and its checks between two tests. */
JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_testSpin(JNIEnv *env, jclass c, jlong request, jlong status,
        jint polls)
{
    (void)env;
    (void)c;
    return test_polls(request, status, polls);
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_await(JNIEnv *env, jclass c, jlong request, jlong status)
{
    (void)env;
    (void)c;
    MPI_Status s;
    int code = MPI_Wait(REQUEST(request), &s);
    if (code != MPI_SUCCESS) {
        return -code;
    }
    store_status(status, &s);
    return 0;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_iprobe(JNIEnv *env, jclass c, jint source, jint tag,
        jlong status)
{
    (void)env;
    (void)c;
    int found = 0;
    MPI_Status s;
    int code = MPI_Iprobe(to_mpi_source(source), to_mpi_tag(tag), ibis_comm, &found, &s);
    if (code != MPI_SUCCESS) {
        return -code;
    }
    if (found) {
        store_status(status, &s);
    }
    return found != 0;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_cancel(JNIEnv *env, jclass c, jlong request)
{
    (void)env;
    (void)c;
    int code = MPI_Cancel(REQUEST(request));
    return code == MPI_SUCCESS ? 0 : -code;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_improbe(JNIEnv *env, jclass c, jint source, jint tag,
        jlong message, jlong status)
{
    (void)env;
    (void)c;
    int found = 0;
    MPI_Status s;
    int code = MPI_Improbe(to_mpi_source(source), to_mpi_tag(tag), ibis_comm, &found, MESSAGE(message), &s);
    if (code != MPI_SUCCESS) {
        return -code;
    }
    if (found) {
        store_status(status, &s);
    }
    return found != 0;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_mrecv(JNIEnv *env, jclass c, jlong address, jint capacity,
        jlong message, jlong status)
{
    (void)env;
    (void)c;
    MPI_Status s;
    int code = MPI_Mrecv(PTR(address), capacity, MPI_BYTE, MESSAGE(message), &s);
    if (code != MPI_SUCCESS) {
        return -code;
    }
    store_status(status, &s);
    return 0;
}

JNIEXPORT jint JNICALL Java_ibis_impl_mpi_MpiNative_imrecv(JNIEnv *env, jclass c, jlong address, jint capacity,
        jlong message, jlong request)
{
    (void)env;
    (void)c;
    int code = MPI_Imrecv(PTR(address), capacity, MPI_BYTE, MESSAGE(message), REQUEST(request));
    return code == MPI_SUCCESS ? 0 : -code;
}
