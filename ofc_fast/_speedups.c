/* _speedups.c -- the per-call rankers ofc_fast.rank5() / rank3() as METH_FASTCALL
 * builtins, so that ranking one hand from Python costs one C call, not a cffi
 * argument conversion plus a Python wrapper.  Everything else goes through cffi.
 *
 * Fast path: a list or tuple of exactly 5 (3) Python ints, all card ids, distinct.
 * Anything else (text, numpy arrays, bad ids, repeats, wrong counts) is handed to a
 * Python fallback registered by ofc_fast.ranking, which parses it or raises
 * CardError; so both paths give the same results and the same errors.
 *
 * Built with the limited API (abi3) except on free-threaded CPython. */
#include <Python.h>

#include "ofc_fast.h"

typedef struct speedups_state {
    PyObject *fallback; /* callable(cards, n) -> int, or raises */
} speedups_state;

static speedups_state *state_of(PyObject *module)
{
    return (speedups_state *)PyModule_GetState(module);
}

/* 1 and the cards in out[] when seq is a list/tuple of n distinct int card ids. */
static int fast_cards(PyObject *seq, Py_ssize_t n, uint8_t out[5])
{
    uint64_t seen = 0;
    Py_ssize_t i;
    int is_list = PyList_CheckExact(seq);
    if (!is_list && !PyTuple_CheckExact(seq)) {
        return 0;
    }
    if ((is_list ? PyList_Size(seq) : PyTuple_Size(seq)) != n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        PyObject *item = is_list ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i);
        long v;
        uint64_t bit;
        if (item == NULL || !PyLong_CheckExact(item)) {
            PyErr_Clear();
            return 0;
        }
        v = PyLong_AsLong(item);
        if (v < 0 || v >= OFC_CARDS) {
            PyErr_Clear();
            return 0;
        }
        bit = (uint64_t)1 << v;
        if (seen & bit) {
            return 0;
        }
        seen |= bit;
        out[i] = (uint8_t)v;
    }
    return 1;
}

static PyObject *rank_n(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                        Py_ssize_t n, const char *name)
{
    uint8_t c[5];
    speedups_state *st;
    if (nargs != 1) {
        return PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (%zd given)",
                            name, nargs);
    }
    if (fast_cards(args[0], n, c)) {
        return PyLong_FromLong(n == 5 ? ofc_rank5_unchecked(c[0], c[1], c[2], c[3], c[4])
                                      : ofc_rank3_unchecked(c[0], c[1], c[2]));
    }
    st = state_of(module);
    if (st == NULL || st->fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "ofc_fast._speedups: no fallback registered");
        return NULL;
    }
    return PyObject_CallFunction(st->fallback, "On", args[0], n);
}

static PyObject *speedups_rank5(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return rank_n(module, args, nargs, 5, "rank5");
}

static PyObject *speedups_rank3(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return rank_n(module, args, nargs, 3, "rank3");
}

static PyObject *speedups_set_fallback(PyObject *module, PyObject *fallback)
{
    speedups_state *st = state_of(module);
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "fallback must be callable");
        return NULL;
    }
    Py_INCREF(fallback);
    Py_XDECREF(st->fallback);
    st->fallback = fallback;
    Py_RETURN_NONE;
}

static int speedups_traverse(PyObject *module, visitproc visit, void *arg)
{
    speedups_state *st = state_of(module);
    if (st && st->fallback) {
        return visit(st->fallback, arg);
    }
    return 0;
}

static int speedups_clear(PyObject *module)
{
    speedups_state *st = state_of(module);
    if (st) {
        Py_CLEAR(st->fallback);
    }
    return 0;
}

static void speedups_free(void *module)
{
    speedups_clear((PyObject *)module);
}

static PyMethodDef speedups_methods[] = {
    {"rank5", (PyCFunction)(void (*)(void))speedups_rank5, METH_FASTCALL,
     "rank5(cards) -> int: strength of a 5-card hand."},
    {"rank3", (PyCFunction)(void (*)(void))speedups_rank3, METH_FASTCALL,
     "rank3(cards) -> int: strength of a 3-card front hand."},
    {"set_fallback", speedups_set_fallback, METH_O,
     "set_fallback(f): f(cards, n) handles every input the fast path does not."},
    {NULL, NULL, 0, NULL}};

static PyModuleDef_Slot speedups_slots[] = {
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL}};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT, "ofc_fast._speedups",
    "Per-call rankers of ofc_fast (see ofc_fast.ranking).", sizeof(speedups_state),
    speedups_methods, speedups_slots, speedups_traverse, speedups_clear, speedups_free};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
