/*
 * ibis_ucx.c: the JNI glue of ibis.impl.ucx.UcxNative over UCX's UCP layer (library ibis-ucx).
 *
 * Handles passed to Java as jlong:
 *   worker    a struct ibis_worker * (one UCP context, one UCP worker in thread mode MULTI, the
 *             worker's event file descriptor, and the list of its open endpoints)
 *   endpoint  a struct ibis_endpoint * (the ucp_ep_h, its error handling mode, and the status
 *             its error handler recorded): endpointError(long) has only this handle to read
 *             the recorded status from. Java only passes the value around.
 *   request   a UCP request pointer (nbx API, no callbacks: Java polls requestStatus)
 *   message   a ucp_tag_message_h from ucp_tag_probe_nb
 *
 * Return convention of the nbx calls (send, receiveMessage): NULL from UCX (done at once) -> 0,
 * an error pointer -> its (negative) status, else the request pointer.
 *
 * Hot-path functions (send, probe, peek, receiveMessage, requestStatus, requestFree, requestCancel,
 * progress, arm, waitEvent, signal) take primitives only: no JNI call, no Java object, no malloc.
 *
 * Signals: the JVM uses SIGSEGV, SIGBUS, SIGILL and SIGFPE itself (implicit null checks,
 * safepoints). UCX installs its own handlers for those when libucs loads, unless the environment
 * variable UCX_ERROR_SIGNALS is set to the empty string before the JVM starts; the JVM's handlers
 * must win, so launchers and tests set UCX_ERROR_SIGNALS= (nothing to do here: libucs reads it
 * in its constructor, before any code of ours runs).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jni.h>
#include <ucp/api/ucp.h>

#include "ibis_impl_ucx_UcxNative.h"

/* UcxNative's constants (javac -h wrote them into the header) must be UCX's. */
_Static_assert(ibis_impl_ucx_UcxNative_OK == UCS_OK, "UcxNative.OK");
_Static_assert(ibis_impl_ucx_UcxNative_IN_PROGRESS == UCS_INPROGRESS, "UcxNative.IN_PROGRESS");
_Static_assert(ibis_impl_ucx_UcxNative_ERR_BUSY == UCS_ERR_BUSY, "UcxNative.ERR_BUSY");

struct ibis_endpoint {
    ucp_ep_h ep;
    int peer_mode;              /* UCP_ERR_HANDLING_MODE_PEER (forced close allowed) */
    int error;                  /* status from the error handler; atomic access only */
    struct ibis_endpoint *prev; /* the worker's list of open endpoints (set-up path only) */
    struct ibis_endpoint *next;
};

struct ibis_worker {
    ucp_context_h context;
    ucp_worker_h worker;
    int efd;
    pthread_mutex_t lock; /* guards endpoints */
    struct ibis_endpoint *endpoints;
};

/* Parameters of the nbx calls: no callback, contiguous bytes (UCX's default datatype). */
static const ucp_request_param_t no_params = {.op_attr_mask = 0};

#define WORKER(h) ((struct ibis_worker *)(intptr_t)(h))
#define ENDPOINT(h) ((struct ibis_endpoint *)(intptr_t)(h))
#define PTR(h) ((void *)(intptr_t)(h))

/* ------------------------------------------------------------------------------------ helpers */

static void throw_new(JNIEnv *env, const char *class_name, const char *message)
{
    jclass c = (*env)->FindClass(env, class_name);
    if (c != NULL) { /* else FindClass left an exception pending */
        (*env)->ThrowNew(env, c, message);
    }
}

/* Throws java.io.IOException "<call> failed: <UCX status text>". */
static void throw_status(JNIEnv *env, const char *call, ucs_status_t status)
{
    char message[256];
    snprintf(message, sizeof message, "%s failed: %s (UCX status %d)", call, ucs_status_string(status),
             (int)status);
    throw_new(env, "java/io/IOException", message);
}

static jlong status_or_request(ucs_status_ptr_t p)
{
    if (p == NULL) {
        return 0;
    }
    if (UCS_PTR_IS_ERR(p)) {
        return (jlong)UCS_PTR_STATUS(p);
    }
    return (jlong)(intptr_t)p;
}

static int64_t now_nanos(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/*
 * Progresses the worker until the request is done or the deadline passed; returns the request's
 * status (UCS_INPROGRESS when the time ran out).
 */
static ucs_status_t wait_request(struct ibis_worker *w, void *request, int64_t deadline)
{
    ucs_status_t status;
    while ((status = ucp_request_check_status(request)) == UCS_INPROGRESS) {
        if (now_nanos() - deadline >= 0) {
            return UCS_INPROGRESS;
        }
        ucp_worker_progress(w->worker);
    }
    return status;
}

static void error_handler(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    (void)ep;
    /* Called from ucp_worker_progress in any thread; never after ucp_ep_close_nbx started. */
    __atomic_store_n(&((struct ibis_endpoint *)arg)->error, (int)status, __ATOMIC_RELEASE);
}

static void unlink_endpoint(struct ibis_worker *w, struct ibis_endpoint *e)
{
    pthread_mutex_lock(&w->lock);
    if (e->prev != NULL) {
        e->prev->next = e->next;
    } else {
        w->endpoints = e->next;
    }
    if (e->next != NULL) {
        e->next->prev = e->prev;
    }
    pthread_mutex_unlock(&w->lock);
}

/* ----------------------------------------------------------------------------------- set-up */

JNIEXPORT jstring JNICALL Java_ibis_impl_ucx_UcxNative_version(JNIEnv *env, jclass c)
{
    (void)c;
    return (*env)->NewStringUTF(env, ucp_get_version_string());
}

JNIEXPORT jlong JNICALL Java_ibis_impl_ucx_UcxNative_workerCreate(JNIEnv *env, jclass c, jstring rndvThresh)
{
    (void)c;
    ucp_config_t *config;
    ucs_status_t status = ucp_config_read(NULL, NULL, &config);
    if (status != UCS_OK) {
        throw_status(env, "ucp_config_read", status);
        return 0;
    }
    /* The eager/rendezvous switch of ibis.ucx.eager.max; a UCX_RNDV_THRESH of the user's environment wins. */
    if (rndvThresh != NULL && getenv("UCX_RNDV_THRESH") == NULL) {
        const char *value = (*env)->GetStringUTFChars(env, rndvThresh, NULL);
        if (value == NULL) {
            ucp_config_release(config);
            return 0; /* OutOfMemoryError pending */
        }
        status = ucp_config_modify(config, "RNDV_THRESH", value);
        (*env)->ReleaseStringUTFChars(env, rndvThresh, value);
        if (status != UCS_OK) {
            ucp_config_release(config);
            throw_status(env, "ucp_config_modify(RNDV_THRESH) for ibis.ucx.eager.max", status);
            return 0;
        }
    }
    ucp_params_t params;
    memset(&params, 0, sizeof params);
    params.field_mask = UCP_PARAM_FIELD_FEATURES;
    params.features = UCP_FEATURE_TAG | UCP_FEATURE_WAKEUP;
    ucp_context_h context;
    status = ucp_init(&params, config, &context);
    ucp_config_release(config);
    if (status != UCS_OK) {
        throw_status(env, "ucp_init", status);
        return 0;
    }

    ucp_worker_params_t worker_params;
    memset(&worker_params, 0, sizeof worker_params);
    worker_params.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    worker_params.thread_mode = UCS_THREAD_MODE_MULTI;
    ucp_worker_h worker;
    status = ucp_worker_create(context, &worker_params, &worker);
    if (status != UCS_OK) {
        ucp_cleanup(context);
        throw_status(env, "ucp_worker_create", status);
        return 0;
    }

    /* A UCX built without --enable-mt silently gives a weaker mode: every thread may call us. */
    ucp_worker_attr_t attr;
    attr.field_mask = UCP_WORKER_ATTR_FIELD_THREAD_MODE;
    status = ucp_worker_query(worker, &attr);
    const char *failed_call = "ucp_worker_query";
    int efd = -1;
    if (status == UCS_OK && attr.thread_mode != UCS_THREAD_MODE_MULTI) {
        ucp_worker_destroy(worker);
        ucp_cleanup(context);
        throw_new(env, "java/io/IOException",
                  "ucp_worker_create: this UCX gives no thread mode MULTI (build UCX with --enable-mt)");
        return 0;
    }
    if (status == UCS_OK) {
        failed_call = "ucp_worker_get_efd";
        status = ucp_worker_get_efd(worker, &efd);
    }
    if (status != UCS_OK) {
        ucp_worker_destroy(worker);
        ucp_cleanup(context);
        throw_status(env, failed_call, status);
        return 0;
    }

    struct ibis_worker *w = calloc(1, sizeof *w);
    if (w == NULL) {
        ucp_worker_destroy(worker);
        ucp_cleanup(context);
        throw_new(env, "java/lang/OutOfMemoryError", "ibis-ucx: worker struct");
        return 0;
    }
    w->context = context;
    w->worker = worker;
    w->efd = efd;
    pthread_mutex_init(&w->lock, NULL);
    return (jlong)(intptr_t)w;
}

JNIEXPORT jbyteArray JNICALL Java_ibis_impl_ucx_UcxNative_workerAddress(JNIEnv *env, jclass c, jlong worker)
{
    (void)c;
    struct ibis_worker *w = WORKER(worker);
    ucp_address_t *address;
    size_t length;
    ucs_status_t status = ucp_worker_get_address(w->worker, &address, &length);
    if (status != UCS_OK) {
        throw_status(env, "ucp_worker_get_address", status);
        return NULL;
    }
    jbyteArray result = (*env)->NewByteArray(env, (jsize)length);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, (jsize)length, (const jbyte *)address);
    }
    ucp_worker_release_address(w->worker, address);
    return result;
}

JNIEXPORT jlong JNICALL Java_ibis_impl_ucx_UcxNative_endpointCreate(JNIEnv *env, jclass c, jlong worker,
                                                                    jbyteArray address, jint error_mode)
{
    (void)c;
    struct ibis_worker *w = WORKER(worker);
    if (address == NULL) {
        throw_new(env, "java/lang/NullPointerException", "endpointCreate: address");
        return 0;
    }
    jsize length = (*env)->GetArrayLength(env, address);
    void *remote = malloc(length > 0 ? (size_t)length : 1);
    struct ibis_endpoint *e = calloc(1, sizeof *e);
    if (remote == NULL || e == NULL) {
        free(remote);
        free(e);
        throw_new(env, "java/lang/OutOfMemoryError", "ibis-ucx: endpoint struct");
        return 0;
    }
    (*env)->GetByteArrayRegion(env, address, 0, length, (jbyte *)remote);

    ucp_ep_params_t params;
    memset(&params, 0, sizeof params);
    params.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE;
    params.address = (const ucp_address_t *)remote;
    e->peer_mode = error_mode == ibis_impl_ucx_UcxNative_ERROR_MODE_PEER;
    if (e->peer_mode) {
        params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
        params.field_mask |= UCP_EP_PARAM_FIELD_ERR_HANDLER;
        params.err_handler.cb = error_handler;
        params.err_handler.arg = e;
    } else {
        params.err_mode = UCP_ERR_HANDLING_MODE_NONE;
    }
    ucs_status_t status = ucp_ep_create(w->worker, &params, &e->ep);
    free(remote);
    if (status != UCS_OK) {
        free(e);
        throw_status(env, "ucp_ep_create", status);
        return 0;
    }
    pthread_mutex_lock(&w->lock);
    e->next = w->endpoints;
    if (e->next != NULL) {
        e->next->prev = e;
    }
    w->endpoints = e;
    pthread_mutex_unlock(&w->lock);
    return (jlong)(intptr_t)e;
}

/* UCX's description of an endpoint (ucp_ep_print_info), for logs and tests: set-up path, objects allowed. */
JNIEXPORT jstring JNICALL Java_ibis_impl_ucx_UcxNative_endpointInfo(JNIEnv *env, jclass c, jlong endpoint)
{
    (void)c;
    char *text = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&text, &size);
    if (stream == NULL) {
        throw_new(env, "java/lang/OutOfMemoryError", "ibis-ucx: endpointInfo stream");
        return NULL;
    }
    ucp_ep_print_info(ENDPOINT(endpoint)->ep, stream);
    fclose(stream);
    jstring result = (*env)->NewStringUTF(env, text != NULL ? text : "");
    free(text);
    return result;
}

/*
 * A forced close (asked for, or the endpoint saw an error) is possible only in peer error mode:
 * UCX rejects it for the others, which are closed in flush mode. When a flush-mode close does not
 * end in time it is left to UCX, which releases the endpoint when the flush ends (in peer mode a
 * failed peer ends it) or in ucp_worker_destroy; a second ucp_ep_close_nbx on the same endpoint
 * is not allowed. Either way our struct is freed here: UCX calls no error handler once the close
 * started.
 */
JNIEXPORT void JNICALL Java_ibis_impl_ucx_UcxNative_endpointClose(JNIEnv *env, jclass c, jlong worker,
                                                                  jlong endpoint, jboolean force,
                                                                  jint timeout_millis)
{
    (void)env;
    (void)c;
    struct ibis_worker *w = WORKER(worker);
    struct ibis_endpoint *e = ENDPOINT(endpoint);
    int failed = __atomic_load_n(&e->error, __ATOMIC_ACQUIRE) != 0;
    ucp_request_param_t params = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = 0};
    if (e->peer_mode && (force || failed)) {
        params.flags = UCP_EP_CLOSE_FLAG_FORCE;
    }
    unlink_endpoint(w, e);
    void *request = ucp_ep_close_nbx(e->ep, &params);
    if (UCS_PTR_IS_PTR(request)) {
        int64_t deadline = now_nanos() + (int64_t)(timeout_millis < 0 ? 0 : timeout_millis) * 1000000;
        wait_request(w, request, deadline);
        ucp_request_free(request); /* released now, or by UCX when the close ends */
    }
    free(e);
}

JNIEXPORT jint JNICALL Java_ibis_impl_ucx_UcxNative_endpointError(JNIEnv *env, jclass c, jlong endpoint)
{
    (void)env;
    (void)c;
    return __atomic_load_n(&ENDPOINT(endpoint)->error, __ATOMIC_ACQUIRE);
}

JNIEXPORT void JNICALL Java_ibis_impl_ucx_UcxNative_workerDestroy(JNIEnv *env, jclass c, jlong worker)
{
    (void)env;
    (void)c;
    struct ibis_worker *w = WORKER(worker);
    /* Destroys the endpoints still open too; their structs go after it (error handler args). */
    ucp_worker_destroy(w->worker);
    ucp_cleanup(w->context);
    struct ibis_endpoint *e = w->endpoints;
    while (e != NULL) {
        struct ibis_endpoint *next = e->next;
        free(e);
        e = next;
    }
    pthread_mutex_destroy(&w->lock);
    free(w);
}

JNIEXPORT jstring JNICALL Java_ibis_impl_ucx_UcxNative_statusString(JNIEnv *env, jclass c, jint status)
{
    (void)c;
    return (*env)->NewStringUTF(env, ucs_status_string((ucs_status_t)status));
}

JNIEXPORT jlong JNICALL Java_ibis_impl_ucx_UcxNative_address(JNIEnv *env, jclass c, jobject buffer)
{
    (void)c;
    if (buffer == NULL) {
        throw_new(env, "java/lang/NullPointerException", "address: buffer");
        return 0;
    }
    void *address = (*env)->GetDirectBufferAddress(env, buffer);
    if (address == NULL) {
        throw_new(env, "java/lang/IllegalArgumentException", "address: not a direct buffer");
        return 0;
    }
    return (jlong)(intptr_t)address;
}

/* --------------------------------------------------------------------------------- hot path */

JNIEXPORT jlong JNICALL Java_ibis_impl_ucx_UcxNative_send(JNIEnv *env, jclass c, jlong worker, jlong endpoint,
                                                          jlong tag, jlong address, jlong length)
{
    (void)env;
    (void)c;
    (void)worker;
    return status_or_request(
            ucp_tag_send_nbx(ENDPOINT(endpoint)->ep, PTR(address), (size_t)length, (ucp_tag_t)tag, &no_params));
}

JNIEXPORT jlong JNICALL Java_ibis_impl_ucx_UcxNative_probe(JNIEnv *env, jclass c, jlong worker, jlong tag,
                                                           jlong mask, jlong info_address)
{
    (void)env;
    (void)c;
    ucp_tag_recv_info_t info;
    ucp_tag_message_h message =
            ucp_tag_probe_nb(WORKER(worker)->worker, (ucp_tag_t)tag, (ucp_tag_t)mask, 1, &info);
    if (message == NULL) {
        return 0;
    }
    uint64_t out[2] = {(uint64_t)info.length, (uint64_t)info.sender_tag};
    memcpy(PTR(info_address), out, sizeof out); /* memcpy: the address need not be aligned */
    return (jlong)(intptr_t)message;
}

/*
 * For a reader that waits for its next message: up to polls times, progress the worker once and
 * look for a matching message (probe with remove = 1), returning the message (its length and sender
 * tag stored at info_address as by probe) as soon as there is one, or 0. Stops early, without a
 * message, after a progress that handled events: they may be other waiters' messages, which the
 * Java side then scans for. The events handled in all are stored at info_address + 16 (8 bytes).
 */
JNIEXPORT jlong JNICALL Java_ibis_impl_ucx_UcxNative_progressProbe(JNIEnv *env, jclass c, jlong worker, jlong tag,
                                                                   jlong mask, jlong info_address, jint polls)
{
    (void)env;
    (void)c;
    ucp_worker_h w = WORKER(worker)->worker;
    uint64_t events = 0;
    ucp_tag_message_h message = NULL;
    ucp_tag_recv_info_t info;
    for (jint i = 0; i < polls; i++) {
        unsigned n = ucp_worker_progress(w);
        events += n;
        message = ucp_tag_probe_nb(w, (ucp_tag_t)tag, (ucp_tag_t)mask, 1, &info);
        if (message != NULL || n != 0) {
            break;
        }
    }
    memcpy((char *)PTR(info_address) + 16, &events, sizeof events);
    if (message == NULL) {
        return 0;
    }
    uint64_t out[2] = {(uint64_t)info.length, (uint64_t)info.sender_tag};
    memcpy(PTR(info_address), out, sizeof out);
    return (jlong)(intptr_t)message;
}

/*
 * Whether a message matching tag/mask has arrived, leaving it queued (remove = 0): a cheap look
 * any thread may take for another (UCX serialises it with the worker's other calls, thread mode
 * MULTI); the owner of the tag takes the message with probe later.
 */
JNIEXPORT jint JNICALL Java_ibis_impl_ucx_UcxNative_peek(JNIEnv *env, jclass c, jlong worker, jlong tag,
                                                         jlong mask)
{
    (void)env;
    (void)c;
    ucp_tag_recv_info_t info;
    return ucp_tag_probe_nb(WORKER(worker)->worker, (ucp_tag_t)tag, (ucp_tag_t)mask, 0, &info) != NULL;
}

JNIEXPORT jlong JNICALL Java_ibis_impl_ucx_UcxNative_receiveMessage(JNIEnv *env, jclass c, jlong worker,
                                                                    jlong message, jlong address, jlong length)
{
    (void)env;
    (void)c;
    return status_or_request(ucp_tag_msg_recv_nbx(WORKER(worker)->worker, PTR(address), (size_t)length,
                                                  (ucp_tag_message_h)PTR(message), &no_params));
}

JNIEXPORT jint JNICALL Java_ibis_impl_ucx_UcxNative_requestStatus(JNIEnv *env, jclass c, jlong request)
{
    (void)env;
    (void)c;
    if (request == 0) {
        return (jint)UCS_OK; /* 0 stands for a call that completed at once: never hand UCX a null request */
    }
    return (jint)ucp_request_check_status(PTR(request));
}

JNIEXPORT void JNICALL Java_ibis_impl_ucx_UcxNative_requestFree(JNIEnv *env, jclass c, jlong request)
{
    (void)env;
    (void)c;
    ucp_request_free(PTR(request));
}

JNIEXPORT void JNICALL Java_ibis_impl_ucx_UcxNative_requestCancel(JNIEnv *env, jclass c, jlong worker,
                                                                  jlong request)
{
    (void)env;
    (void)c;
    ucp_request_cancel(WORKER(worker)->worker, PTR(request));
}

JNIEXPORT jint JNICALL Java_ibis_impl_ucx_UcxNative_progress(JNIEnv *env, jclass c, jlong worker)
{
    (void)env;
    (void)c;
    return (jint)ucp_worker_progress(WORKER(worker)->worker);
}

JNIEXPORT jint JNICALL Java_ibis_impl_ucx_UcxNative_arm(JNIEnv *env, jclass c, jlong worker)
{
    (void)env;
    (void)c;
    return (jint)ucp_worker_arm(WORKER(worker)->worker);
}

JNIEXPORT jint JNICALL Java_ibis_impl_ucx_UcxNative_waitEvent(JNIEnv *env, jclass c, jlong worker,
                                                              jint timeout_millis)
{
    (void)env;
    (void)c;
    struct pollfd p = {.fd = WORKER(worker)->efd, .events = POLLIN, .revents = 0};
    if (timeout_millis < 0) {
        for (;;) {
            int n = poll(&p, 1, -1);
            if (n >= 0) {
                return n > 0 ? 1 : 0;
            }
            if (errno != EINTR) {
                return UCS_ERR_IO_ERROR;
            }
        }
    }
    int64_t deadline = now_nanos() + (int64_t)timeout_millis * 1000000;
    int wait = timeout_millis;
    for (;;) {
        int n = poll(&p, 1, wait);
        if (n >= 0) {
            return n > 0 ? 1 : 0;
        }
        if (errno != EINTR) {
            return UCS_ERR_IO_ERROR;
        }
        int64_t left = deadline - now_nanos();
        if (left <= 0) {
            return 0;
        }
        wait = (int)((left + 999999) / 1000000);
    }
}

JNIEXPORT jint JNICALL Java_ibis_impl_ucx_UcxNative_signal(JNIEnv *env, jclass c, jlong worker)
{
    (void)env;
    (void)c;
    return (jint)ucp_worker_signal(WORKER(worker)->worker);
}
