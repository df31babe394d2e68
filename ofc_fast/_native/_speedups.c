/* _speedups.c -- CPython builtins (METH_FASTCALL / METH_O) for the calls that are
 * made once per hand or per decision, where a cffi argument conversion plus a
 * Python wrapper would cost more than the work.  Batches and everything else go
 * through the cffi module.
 *
 * rank5() / rank3(): the per-call rankers ofc_fast.rank5() / rank3().  Fast path: a
 * list or tuple of exactly 5 (3) Python ints, all card ids, distinct.  Anything else
 * (text, numpy arrays, bad ids, repeats, wrong counts) is handed to a Python
 * fallback registered by ofc_fast.ranking (set_fallback()), which parses it or
 * raises CardError; so both paths give the same results and the same errors.
 *
 * observe() turns a game state (an ofc_game held by a bytearray, csrc/include/ofc_game.h)
 * into one seat's observation, the plain dict of ofc_fast.game.Observation, in one
 * call of ofc_game_observe.  legal_actions() lists the pending decision's action
 * ids, cached per decision shape; place() and act() apply a placement or an action
 * id to the game in place.  The three engine functions are the cffi module's,
 * reached through function pointers that ofc_fast.game.observation hands over once
 * at import (bind()), together with the Python function that fills the legal-action
 * cache on a shape's first use (the one call back into Python).
 *
 * card_ids(), distinct_ids() and moves() are the fast paths of the card and move
 * checks of ofc_fast.game and ofc_fast.board: a list or tuple of exact int card
 * ids, and the Move tuples of a list of action ids; None or False sends the caller to its own check,
 * which names what is wrong.
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

/* ofc_game_observe of the cffi module, bound once by ofc_fast.game (see bind()). */
typedef int32_t (*observe_fn)(const ofc_game *g, uint32_t seat, ofc_observation *out);
/* ofc_game_apply_placement and ofc_game_apply_action, bound the same way. */
typedef int32_t (*placement_fn)(ofc_game *g, const uint8_t *dest, uint32_t n);
typedef int32_t (*action_fn)(ofc_game *g, uint32_t action);

/* Legal-action tuples are cached per decision shape: n 1..5, k 0..4, room 0..3,
 * 0..5, 0..5. */
#define LEGAL_SHAPES (5 * 5 * 4 * 6 * 6)

typedef struct speedups_state {
    PyObject *fallback;            /* callable(cards, n) -> int, or raises */
    PyObject *keys[OBS_NKEYS];     /* interned observation keys (made on first use) */
    observe_fn observe;            /* NULL until bind() */
    placement_fn place;
    action_fn act;
    PyObject *legal_of;            /* callable(n, k, room) -> tuple of action ids */
    PyObject *legal[LEGAL_SHAPES]; /* cached results of legal_of */
} speedups_state;

static speedups_state *state_of(PyObject *module)
{
    return (speedups_state *)PyModule_GetState(module);
}

/* 1 and the cards in out[] (n of them) when seq is a list/tuple of n distinct int
 * card ids. */
static int fast_cards(PyObject *seq, Py_ssize_t n, uint8_t *out)
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

/* 1 when the bytes of an ofc_game can be observed without reading outside the
 * struct: seat and step counts in range, rows within their sizes, the pending
 * decision inside the deck.  (The engine writes only such states; this guards the
 * C code against a forged buffer.) */
static int game_ok(const ofc_game *g)
{
    static const uint8_t size[3] = {OFC_FRONT_CARDS, OFC_MIDDLE_CARDS, OFC_BACK_CARDS};
    uint32_t s, r;
    if (g->players < 2 || g->players > OFC_GAME_MAX_SEATS || g->button >= g->players
        || g->nsteps > OFC_GAME_MAX_STEPS || g->step > g->nsteps)
        return 0;
    for (s = 0; s < g->players; s++) {
        if (g->ndiscards[s] > 4)
            return 0;
        for (r = 0; r < 3; r++)
            if (g->count[s][r] > size[r])
                return 0;
    }
    if (g->step < g->nsteps) {
        const ofc_game_step *st = &g->steps[g->step];
        if (st->seat >= g->players || st->n > OFC_GAME_MAX_DEALT || st->k > st->n
            || st->start + st->n > OFC_CARDS)
            return 0;
    }
    return 1;
}

/* The game of a bytearray holding an ofc_game, copied into *g (0 and an exception
 * when it is not one). */
static int game_of(PyObject *buf, ofc_game *g)
{
    if (!PyByteArray_Check(buf) || PyByteArray_Size(buf) != (Py_ssize_t)sizeof *g) {
        PyErr_SetString(PyExc_TypeError, "expected the bytearray of an ofc_game");
        return 0;
    }
    memcpy(g, PyByteArray_AsString(buf), sizeof *g);
    if (!game_ok(g)) {
        PyErr_SetString(PyExc_ValueError, "not a valid ofc_game");
        return 0;
    }
    return 1;
}

/* The legal action ids (a new list) of a normal decision of n cards, k discards onto
 * rows with the given counts; cached per shape, filled by legal_of. */
static PyObject *legal_list(speedups_state *st, uint32_t n, uint32_t k,
                            const uint8_t count[3])
{
    uint32_t f0 = OFC_FRONT_CARDS - (uint32_t)count[0];
    uint32_t f1 = OFC_MIDDLE_CARDS - (uint32_t)count[1];
    uint32_t f2 = OFC_BACK_CARDS - (uint32_t)count[2], i;
    PyObject **slot;
    if (n < 1 || n > 5 || k >= n || f0 > OFC_FRONT_CARDS || f1 > OFC_MIDDLE_CARDS
        || f2 > OFC_BACK_CARDS) {
        PyErr_SetString(PyExc_ValueError, "not a normal decision");
        return NULL;
    }
    i = (((n - 1) * 5 + k) * 4 + f0) * 36 + f1 * 6 + f2;
    slot = &st->legal[i];
    if (*slot == NULL) {
        PyObject *t;
        if (st->legal_of == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "ofc_fast._speedups: not bound");
            return NULL;
        }
        t = PyObject_CallFunction(st->legal_of, "II(III)", n, k, f0, f1, f2);
        if (t == NULL)
            return NULL;
        if (!PyTuple_CheckExact(t)) {
            Py_DECREF(t);
            PyErr_SetString(PyExc_TypeError, "legal_of must return a tuple");
            return NULL;
        }
        if (*slot == NULL) /* another thread may have filled it during the call */
            *slot = t;
        else
            Py_DECREF(t);
    }
    return PySequence_List(*slot);
}

/* observe(game, seat, template) -> dict: seat's view of the ofc_game held by the
 * bytearray `game` (one call of ofc_game_observe, no copy through bytes).  The dict
 * is a copy of `template` (the keys in order, the per-game constants players,
 * button, rules, game, lowball filled in, and to_discard .. face_down holding the
 * values of a seat not to act: 0, 0, 0, None, False, False) with every other key
 * set here. */
static PyObject *speedups_observe(PyObject *module, PyObject *const *args,
                                  Py_ssize_t nargs)
{
    speedups_state *st = state_of(module);
    ofc_game g;
    ofc_observation o;
    PyObject *values[OBS_NKEYS], *dict;
    long seat;
    int i, ok = 1, own_turn;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "observe() takes 3 arguments (%zd given)",
                            nargs);
    if (st->observe == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "ofc_fast._speedups: not bound");
        return NULL;
    }
    if (!PyDict_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "observe(): the template must be a dict");
        return NULL;
    }
    if (!game_of(args[0], &g) || intern_keys(st) < 0)
        return NULL;
    seat = PyLong_AsLong(args[1]);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat >= g.players) {
        PyErr_SetString(PyExc_ValueError, "observe(): not a seat of the game");
        return NULL;
    }
    if (st->observe(&g, (uint32_t)seat, &o) != 0) {
        PyErr_SetString(PyExc_ValueError, "observe(): the engine refused");
        return NULL;
    }
    own_turn = !o.is_over && o.to_act == seat && !o.full;
    for (i = 0; i < OBS_NKEYS; i++)
        values[i] = NULL;
    values[0] = PyLong_FromLong(o.seat);
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
    values[18] = own_turn ? legal_list(st, o.n, o.k, o.count[o.seat])
                          : (Py_INCREF(Py_None), Py_None);
    values[19] = PyBool_FromLong(o.full);
    values[20] = PyBool_FromLong(o.face_down);
    dict = PyDict_Copy(args[2]);
    for (i = 0; i < OBS_NKEYS; i++) {
        if (i >= 1 && i <= 5)
            continue; /* per-game constants, from the template */
        if (i >= 15 && o.n == 0 && o.k == 0 && o.future_cards == 0
            && o.future_discards == 0 && values[18] == Py_None && !o.full && !o.face_down)
            break; /* the template's values: 0, 0, 0, None, False, False */
        if (values[i] == NULL || dict == NULL
            || PyDict_SetItem(dict, st->keys[i], values[i]) < 0)
            ok = 0;
        Py_XDECREF(values[i]);
        values[i] = NULL;
    }
    for (i = 0; i < OBS_NKEYS; i++)
        Py_XDECREF(values[i]); /* those the loop left (the template's values) */
    if (!ok) {
        Py_XDECREF(dict);
        return NULL;
    }
    return dict;
}

/* legal_actions(game) -> list or None: the legal action ids of the pending normal
 * decision of the ofc_game held by the bytearray `game` (None when the deal is over
 * or the decision is a full set). */
static PyObject *speedups_legal_actions(PyObject *module, PyObject *arg)
{
    ofc_game g;
    const ofc_game_step *s;
    if (!game_of(arg, &g))
        return NULL;
    if (g.step >= g.nsteps || g.steps[g.step].full)
        Py_RETURN_NONE;
    s = &g.steps[g.step];
    return legal_list(state_of(module), s->n, s->k, g.count[s->seat]);
}

/* The length of a list or tuple, else -1. */
static Py_ssize_t seq_size(PyObject *seq)
{
    if (PyList_CheckExact(seq))
        return PyList_Size(seq);
    return PyTuple_CheckExact(seq) ? PyTuple_Size(seq) : -1;
}

/* card_ids(seq) -> tuple | None: seq as a tuple when it is a list or tuple of 1 to 5
 * distinct int card ids 0..51 (the cards of a normal decision), else None (the
 * caller then parses it, or explains what is wrong). */
static PyObject *speedups_card_ids(PyObject *module, PyObject *seq)
{
    uint8_t c[5];
    Py_ssize_t n = seq_size(seq), i;
    PyObject *out;
    (void)module;
    if (n < 1 || n > 5 || !fast_cards(seq, n, c))
        Py_RETURN_NONE;
    out = PyTuple_New(n);
    for (i = 0; out != NULL && i < n; i++) {
        PyObject *x = PyLong_FromLong(c[i]);
        if (x == NULL || PyTuple_SetItem(out, i, x) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* distinct_ids(seq) -> bool: True when seq is a list or tuple of distinct int card
 * ids 0..51 (exact ints: not bools), any length up to 52. */
static PyObject *speedups_distinct_ids(PyObject *module, PyObject *seq)
{
    uint8_t c[OFC_CARDS];
    Py_ssize_t n = seq_size(seq);
    (void)module;
    return PyBool_FromLong(n >= 0 && n <= OFC_CARDS && fast_cards(seq, n, c));
}

/* moves(cls, cards, table, actions) -> list | None: for each action id a, a new
 * cls (a tuple subclass: ofc_fast.game.Move) holding (cards, table[a], None, False);
 * None when an id is not an int with a tuple at table[a] (the caller then names the
 * bad id).  The fast path of moves_for_actions: a 5-card opening lists 232 moves. */
static PyObject *speedups_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *cls, *cards, *table, *acts, *out;
    allocfunc alloc;
    Py_ssize_t n, i, size;
    int is_list;
    (void)module;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "moves() takes 4 arguments (%zd given)",
                            nargs);
    cls = args[0], cards = args[1], table = args[2], acts = args[3];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)
        || !PyTuple_CheckExact(cards) || !PyTuple_CheckExact(table)) {
        PyErr_SetString(PyExc_TypeError, "moves(): expected a tuple type and two tuples");
        return NULL;
    }
    is_list = PyList_CheckExact(acts);
    if (!is_list && !PyTuple_CheckExact(acts))
        Py_RETURN_NONE;
    alloc = (allocfunc)(uintptr_t)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
    if (alloc == NULL) {
        PyErr_SetString(PyExc_TypeError, "moves(): the type cannot be allocated");
        return NULL;
    }
    n = is_list ? PyList_Size(acts) : PyTuple_Size(acts);
    size = PyTuple_Size(table);
    for (i = 0; i < n; i++) { /* every id valid before anything is built */
        PyObject *a = is_list ? PyList_GetItem(acts, i) : PyTuple_GetItem(acts, i);
        long v;
        if (a == NULL || !PyLong_CheckExact(a)) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        v = PyLong_AsLong(a);
        if (v < 0 || v >= size || !PyTuple_CheckExact(PyTuple_GetItem(table, v))) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
    }
    out = PyList_New(n);
    for (i = 0; out != NULL && i < n; i++) {
        PyObject *a = is_list ? PyList_GetItem(acts, i) : PyTuple_GetItem(acts, i);
        PyObject *dest = PyTuple_GetItem(table, PyLong_AsLong(a));
        PyObject *m = alloc((PyTypeObject *)cls, 4);
        if (m == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        Py_INCREF(cards);
        Py_INCREF(dest);
        Py_INCREF(Py_None);
        Py_INCREF(Py_False);
        PyTuple_SetItem(m, 0, cards);
        PyTuple_SetItem(m, 1, dest);
        PyTuple_SetItem(m, 2, Py_None);
        PyTuple_SetItem(m, 3, Py_False);
        PyList_SetItem(out, i, m);
    }
    return out;
}

/* The engine's status of applying a move to the ofc_game held by the bytearray buf:
 * the state is checked and copied out, changed by the engine, and written back only
 * when the engine accepted the move (else buf is unchanged). */
static PyObject *apply_to(speedups_state *st, PyObject *buf, const uint8_t *dest,
                          uint32_t n, long action)
{
    ofc_game g;
    int32_t status;
    if (st->place == NULL || st->act == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "ofc_fast._speedups: not bound");
        return NULL;
    }
    if (!game_of(buf, &g))
        return NULL;
    status = dest != NULL ? st->place(&g, dest, n) : st->act(&g, (uint32_t)action);
    if (status == 0)
        memcpy(PyByteArray_AsString(buf), &g, sizeof g);
    return PyLong_FromLong(status);
}

/* place(game, dest) -> status: ofc_game_apply_placement on the ofc_game held by the
 * bytearray `game`; dest a tuple of up to 17 ints 0..255 (one per dealt card; the
 * engine refuses those outside 0..3).  TypeError / ValueError for another dest,
 * without touching the game. */
static PyObject *speedups_place(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t dest[OFC_GAME_MAX_DEALT];
    Py_ssize_t n, i;
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "place() takes 2 arguments (%zd given)",
                            nargs);
    if (!PyTuple_CheckExact(args[1]) || (n = PyTuple_Size(args[1])) > OFC_GAME_MAX_DEALT) {
        PyErr_SetString(PyExc_TypeError,
                        "place(): dest must be a tuple of at most 17 ints");
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *d = PyTuple_GetItem(args[1], i);
        long v = PyLong_CheckExact(d) ? PyLong_AsLong(d) : -1;
        if (v < 0 || v > 255) { /* as bytes(dest); the engine checks 0..3 */
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "place(): a destination outside 0..255");
            return NULL;
        }
        dest[i] = (uint8_t)v;
    }
    return apply_to(state_of(module), args[0], dest, (uint32_t)n, 0);
}

/* act(game, action) -> status: ofc_game_apply_action on the ofc_game held by the
 * bytearray `game` (action an int; the engine checks its range). */
static PyObject *speedups_act(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long a;
    if (nargs != 2)
        return PyErr_Format(PyExc_TypeError, "act() takes 2 arguments (%zd given)", nargs);
    a = PyLong_CheckExact(args[1]) ? PyLong_AsLong(args[1]) : -1;
    if (a < 0 || a >= OFC_ACTION_SPACE) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "act(): an action id outside the action space");
        return NULL;
    }
    return apply_to(state_of(module), args[0], NULL, 0, a);
}

/* bind(observe, place, act, legal_of): once, from ofc_fast.game at import: the
 * addresses of the cffi module's ofc_game_observe, ofc_game_apply_placement and
 * ofc_game_apply_action, and legal_of(n, k, room) -> tuple of action ids. */
static PyObject *speedups_bind(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    speedups_state *st = state_of(module);
    unsigned long long address[3];
    int i;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "bind() takes 4 arguments (%zd given)", nargs);
    if (st->observe != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "ofc_fast._speedups is already bound");
        return NULL;
    }
    if (!PyCallable_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "legal_of must be callable");
        return NULL;
    }
    for (i = 0; i < 3; i++) {
        address[i] = PyLong_AsUnsignedLongLong(args[i]);
        if (PyErr_Occurred())
            return NULL;
        if (address[i] == 0) {
            PyErr_SetString(PyExc_ValueError, "bind(): a NULL address");
            return NULL;
        }
    }
    Py_INCREF(args[3]);
    st->legal_of = args[3];
    st->observe = (observe_fn)(uintptr_t)address[0];
    st->place = (placement_fn)(uintptr_t)address[1];
    st->act = (action_fn)(uintptr_t)address[2];
    Py_RETURN_NONE;
}

static int speedups_traverse(PyObject *module, visitproc visit, void *arg)
{
    speedups_state *st = state_of(module);
    if (st) {
        Py_VISIT(st->fallback);
        Py_VISIT(st->legal_of);
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
        Py_CLEAR(st->legal_of);
        for (i = 0; i < LEGAL_SHAPES; i++)
            Py_CLEAR(st->legal[i]);
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
    {"observe", (PyCFunction)(void (*)(void))speedups_observe, METH_FASTCALL,
     "observe(game, seat, template) -> dict: a seat's observation of the ofc_game held "
     "by a bytearray, as the dict of ofc_fast.game.Observation."},
    {"legal_actions", speedups_legal_actions, METH_O,
     "legal_actions(game) -> list | None: legal action ids of the pending normal "
     "decision of the ofc_game held by a bytearray."},
    {"card_ids", speedups_card_ids, METH_O,
     "card_ids(seq) -> tuple | None: a list or tuple of 1 to 5 distinct int card ids "
     "as a tuple, else None."},
    {"distinct_ids", speedups_distinct_ids, METH_O,
     "distinct_ids(seq) -> bool: a list or tuple of distinct int card ids 0..51."},
    {"moves", (PyCFunction)(void (*)(void))speedups_moves, METH_FASTCALL,
     "moves(cls, cards, table, actions) -> list | None: the moves of action ids."},
    {"bind", (PyCFunction)(void (*)(void))speedups_bind, METH_FASTCALL,
     "bind(observe, place, act, legal_of): once, by ofc_fast.game at import."},
    {"place", (PyCFunction)(void (*)(void))speedups_place, METH_FASTCALL,
     "place(game, dest) -> status: apply a placement to the ofc_game in a bytearray."},
    {"act", (PyCFunction)(void (*)(void))speedups_act, METH_FASTCALL,
     "act(game, action) -> status: apply an action id to the ofc_game in a bytearray."},
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
    "Per-call builtins of ofc_fast: rankers, observation, legal actions, moves.",
    sizeof(speedups_state),
    speedups_methods, speedups_slots, speedups_traverse, speedups_clear, speedups_free};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
