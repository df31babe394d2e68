/* _speedups.c -- the per-call rankers ofc_fast.rank5() / rank3() as METH_FASTCALL
 * builtins, so that ranking one hand from Python costs one C call, not a cffi
 * argument conversion plus a Python wrapper.  Everything else goes through cffi.
 *
 * Fast path: a list or tuple of exactly 5 (3) Python ints, all card ids, distinct.
 * Anything else (text, numpy arrays, bad ids, repeats, wrong counts) is handed to a
 * Python fallback registered by ofc_fast.ranking, which parses it or raises
 * CardError; so both paths give the same results and the same errors.
 *
 * observation() turns the bytes of an ofc_observation (csrc/ofc_game.h, written by
 * ofc_game_observe through cffi) into the plain dict of ofc_fast.game.Observation, so
 * that a bot's view of the table costs about a microsecond.
 *
 * Built with the limited API (abi3) except on free-threaded CPython. */
#include <Python.h>

#include <string.h>

#include "ofc_fast.h"

/* The keys of an observation dict, in the order it is built. */
static const char *const OBS_KEYS[] = {
    "seat", "players", "button", "rules", "game", "lowball", "to_act", "is_over",
    "street", "fantasyland", "boards", "face_down_counts", "discards", "discard_counts",
    "dealt", "to_discard", "future_cards", "future_discards", "legal_actions",
    "full_set", "face_down"};
#define OBS_NKEYS ((int)(sizeof OBS_KEYS / sizeof OBS_KEYS[0]))

typedef struct speedups_state {
    PyObject *fallback;            /* callable(cards, n) -> int, or raises */
    PyObject *keys[OBS_NKEYS];     /* interned observation keys (made on first use) */
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
        PyErr_SetString(PyExc_RuntimeError, "ofc_fast._native._speedups: no fallback registered");
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

/* A list of n small ints from bytes. */
static PyObject *int_list(const uint8_t *v, Py_ssize_t n)
{
    PyObject *list = PyList_New(n);
    Py_ssize_t i;
    if (list == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL || PyList_SetItem(list, i, x) < 0) {
            Py_DECREF(list);
            return NULL;
        }
    }
    return list;
}

/* The boards of an observation: per seat [front, middle, back] visible cards. */
static PyObject *boards_list(const ofc_observation *o)
{
    static const uint8_t start[3] = {0, 3, 8};
    PyObject *boards = PyList_New(o->players);
    Py_ssize_t s;
    int r;
    if (boards == NULL)
        return NULL;
    for (s = 0; s < o->players; s++) {
        PyObject *rows = PyList_New(3);
        if (rows == NULL || PyList_SetItem(boards, s, rows) < 0)
            goto fail;
        for (r = 0; r < 3; r++) {
            PyObject *row = int_list(o->board[s] + start[r], o->count[s][r]);
            if (row == NULL || PyList_SetItem(rows, r, row) < 0)
                goto fail;
        }
    }
    return boards;
fail:
    Py_DECREF(boards);
    return NULL;
}

static PyObject *counts_list(const ofc_observation *o)
{
    PyObject *out = PyList_New(o->players);
    Py_ssize_t s;
    if (out == NULL)
        return NULL;
    for (s = 0; s < o->players; s++) {
        PyObject *row = int_list(o->face_down_count[s], 3);
        if (row == NULL || PyList_SetItem(out, s, row) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static int intern_keys(speedups_state *st)
{
    int i;
    for (i = 0; i < OBS_NKEYS; i++) {
        if (st->keys[i] == NULL && (st->keys[i] = PyUnicode_InternFromString(OBS_KEYS[i]))
                                       == NULL)
            return -1;
    }
    return 0;
}

/* observation(raw, rules_name, game, lowball, legal) -> dict */
static PyObject *speedups_observation(PyObject *module, PyObject *const *args,
                                      Py_ssize_t nargs)
{
    speedups_state *st = state_of(module);
    ofc_observation o;
    char *raw;
    Py_ssize_t size;
    PyObject *values[OBS_NKEYS], *dict;
    int i, ok = 1;
    if (nargs != 5) {
        return PyErr_Format(PyExc_TypeError, "observation() takes 5 arguments (%zd given)",
                            nargs);
    }
    if (PyBytes_AsStringAndSize(args[0], &raw, &size) < 0)
        return NULL;
    if (size != (Py_ssize_t)sizeof o || intern_keys(st) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "observation(): not an ofc_observation");
        return NULL;
    }
    memcpy(&o, raw, sizeof o);
    if (o.players < 2 || o.players > OFC_GAME_MAX_SEATS || o.n > OFC_GAME_MAX_DEALT
        || o.seat >= o.players || o.discard_count[o.seat] > 4) {
        PyErr_SetString(PyExc_ValueError, "observation(): not an ofc_observation");
        return NULL;
    }
    for (i = 0; i < 3; i++)
        Py_INCREF(args[1 + i]);
    values[0] = PyLong_FromLong(o.seat);
    values[1] = PyLong_FromLong(o.players);
    values[2] = PyLong_FromLong(o.button);
    values[3] = args[1];
    values[4] = args[2];
    values[5] = args[3];
    values[6] = o.to_act == OFC_NO_SEAT ? (Py_INCREF(Py_None), Py_None)
                                        : PyLong_FromLong(o.to_act);
    values[7] = PyBool_FromLong(o.is_over);
    values[8] = PyLong_FromLong(o.street);
    values[9] = int_list(o.fl, o.players);
    values[10] = boards_list(&o);
    values[11] = counts_list(&o);
    values[12] = int_list(o.discards, o.discard_count[o.seat]);
    values[13] = int_list(o.discard_count, o.players);
    values[14] = int_list(o.dealt, o.n);
    values[15] = PyLong_FromLong(o.k);
    values[16] = PyLong_FromLong(o.future_cards);
    values[17] = PyLong_FromLong(o.future_discards);
    values[18] = args[4] == Py_None ? (Py_INCREF(Py_None), Py_None)
                                    : PySequence_List(args[4]);
    values[19] = PyBool_FromLong(o.full);
    values[20] = PyBool_FromLong(o.face_down);
    dict = PyDict_New();
    for (i = 0; i < OBS_NKEYS; i++) {
        if (values[i] == NULL || dict == NULL
            || PyDict_SetItem(dict, st->keys[i], values[i]) < 0)
            ok = 0;
        Py_XDECREF(values[i]);
    }
    if (!ok) {
        Py_XDECREF(dict);
        return NULL;
    }
    return dict;
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
    int i;
    if (st) {
        Py_CLEAR(st->fallback);
        for (i = 0; i < OBS_NKEYS; i++)
            Py_CLEAR(st->keys[i]);
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
    {"observation", (PyCFunction)(void (*)(void))speedups_observation, METH_FASTCALL,
     "observation(raw, rules, game, lowball, legal) -> dict: an ofc_observation's bytes "
     "as the dict of ofc_fast.game.Observation."},
    {"set_fallback", speedups_set_fallback, METH_O,
     "set_fallback(f): f(cards, n) handles every input the fast path does not."},
    {NULL, NULL, 0, NULL}};

static PyModuleDef_Slot speedups_slots[] = {
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL}};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT, "ofc_fast._native._speedups",
    "Per-call rankers of ofc_fast (see ofc_fast.ranking).", sizeof(speedups_state),
    speedups_methods, speedups_slots, speedups_traverse, speedups_clear, speedups_free};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
