/* _speedups.c -- CPython builtins (METH_FASTCALL / METH_O) for the calls that are
 * made once per hand or per decision, where a cffi argument conversion plus a
 * Python wrapper would cost more than the work.  Batches and everything else go
 * through the cffi module.
 *
 * Linked with the same C library as the cffi module (the static library that
 * setup.py builds once from csrc/): every engine function here is called directly.
 * No function pointer is handed over at import and C never calls back into Python.
 * ofc_fast._native._fast picks these builtins, or their portable twins
 * (ofc_fast._native._portable, for PyPy), once at import; the differential tests
 * compare the two.
 *
 * rank5() / rank3(): the strength of a list or tuple of exactly 5 (3) distinct
 * int card ids, else -1 (the caller, ofc_fast.ranking, then parses the input or
 * raises CardError).
 *
 * observe() turns a game state (an ofc_game held by a bytearray, csrc/include/ofc_game.h)
 * into one seat's observation, the plain dict of ofc_fast.game.Observation, in one
 * call of ofc_game_observe.  legal_actions() lists the pending decision's action
 * ids (ofc_actions_legal, cached per decision shape as a tuple); place() and act()
 * apply a placement or an action id to the game in place (ofc_game_apply_placement,
 * ofc_game_apply_action).
 *
 * card_ids(), distinct_ids() and moves() are the fast paths of the card and move
 * checks of ofc_fast.game and ofc_fast.board: a list or tuple of exact int card
 * ids, and the Move tuples of a list of action ids; None or False sends the caller
 * to its own check, which names what is wrong.
 *
 * plain() and plain_copy(), the checks and copies of plain observation data, are
 * in _plain_data.c.
 *
 * score_pair() scores two complete boards (their 13 card ids each) in one call of
 * ofc_score_boards_detail and returns the ofc_fast.PairScore.
 *
 * Built with the limited API (abi3) except on free-threaded CPython. */
#include <Python.h>

#include <string.h>

#include "ofc_fast.h"

/* The builtins of _plain_data.c: plain(obs), plain_copy(value) (METH_O) and
 * plain_seat(obs, most) (METH_FASTCALL). */
PyObject *speedups_plain_data(PyObject *module, PyObject *obs);
PyObject *speedups_plain_seat(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *speedups_plain_copy(PyObject *module, PyObject *value);
/* Called by plain() and plain_seat() of _plain_data.c (defined below). */
int speedups_plain_keys(PyObject *module, PyObject **keys);

/* The keys of an observation dict, in the order it is built. */
static const char *const OBS_KEYS[] = {
    "seat", "players", "button", "rules", "game", "lowball", "to_act", "is_over",
    "street", "fantasyland", "boards", "face_down_counts", "discards", "discard_counts",
    "dealt", "to_discard", "future_cards", "future_discards", "legal_actions",
    "full_set", "face_down"};
#define OBS_NKEYS ((int)(sizeof OBS_KEYS / sizeof OBS_KEYS[0]))
#define OBS_BOARDS 10           /* OBS_KEYS[OBS_BOARDS] is "boards" */
#define OBS_FACE_DOWN_COUNTS 11 /* and the next, "face_down_counts" */
#define OBS_SEAT 0              /* "seat" */
#define OBS_PLAYERS 1           /* "players" */

/* Legal-action tuples are cached per decision shape: n 1..5, k 0..4, room 0..3,
 * 0..5, 0..5. */
#define LEGAL_SHAPES (5 * 5 * 4 * 6 * 6)

/* The names of a PairScore's fields, in order, then "__dict__". */
static const char *const PAIR_KEYS[] = {"net",   "rows",      "sweep", "row_points",
                                        "bonus", "royalties", "fouls", "__dict__"};
#define PAIR_NKEYS ((int)(sizeof PAIR_KEYS / sizeof PAIR_KEYS[0]))
#define PAIR_NFIELDS (PAIR_NKEYS - 1)

typedef struct speedups_state {
    PyObject *keys[OBS_NKEYS];        /* interned observation keys (made on first use) */
    PyObject *pair_keys[PAIR_NKEYS];  /* interned PairScore field names */
    PyObject *legal[LEGAL_SHAPES];    /* tuples of legal action ids, per shape */
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

/* The strength of n cards given as a list or tuple of n distinct int card ids,
 * else -1 (any other input: the caller parses it or names what is wrong). */
static PyObject *rank_n(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t n,
                        const char *name)
{
    uint8_t c[5];
    if (nargs != 1) {
        return PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (%zd given)",
                            name, nargs);
    }
    if (!fast_cards(args[0], n, c))
        return PyLong_FromLong(-1);
    return PyLong_FromLong(n == 5 ? ofc_rank5_unchecked(c[0], c[1], c[2], c[3], c[4])
                                  : ofc_rank3_unchecked(c[0], c[1], c[2]));
}

static PyObject *speedups_rank5(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return rank_n(args, nargs, 5, "rank5");
}

static PyObject *speedups_rank3(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    return rank_n(args, nargs, 3, "rank3");
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

/* A tuple of n small ints from bytes. */
static PyObject *int_tuple(const uint8_t *v, Py_ssize_t n)
{
    PyObject *t = PyTuple_New(n);
    Py_ssize_t i;
    for (i = 0; t != NULL && i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL || PyTuple_SetItem(t, i, x) < 0) {
            Py_DECREF(t);
            return NULL;
        }
    }
    return t;
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

/* Interns names[0..n-1] into keys[] (those not made yet); -1 on error. */
static int intern_all(PyObject **keys, const char *const *names, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        if (keys[i] == NULL && (keys[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    }
    return 0;
}

/* The module's interned "boards", "face_down_counts", "seat" and "players" keys, in
 * keys[0..3] (borrowed, made once per module: the module state, as every
 * interpreter has its own), for plain() and plain_seat() of _plain_data.c, which
 * read them at every decision; -1 on error. */
int speedups_plain_keys(PyObject *module, PyObject **keys)
{
    speedups_state *st = state_of(module);
    if (intern_all(st->keys, OBS_KEYS, OBS_NKEYS) < 0)
        return -1;
    keys[0] = st->keys[OBS_BOARDS];
    keys[1] = st->keys[OBS_FACE_DOWN_COUNTS];
    keys[2] = st->keys[OBS_SEAT];
    keys[3] = st->keys[OBS_PLAYERS];
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

/* A tuple of the legal action ids of the decision of that shape
 * (ofc_actions_legal). */
static PyObject *legal_tuple(uint32_t n, uint32_t k, const uint8_t room[3])
{
    uint8_t ids[OFC_ACTION_SPACE];
    int32_t count = ofc_actions_legal(n, k, room, ids, NULL);
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "not a normal decision");
        return NULL;
    }
    return int_tuple(ids, count);
}

/* The legal action ids (a new list) of a normal decision of n cards, k discards onto
 * rows with the given counts; the tuple cached per shape. */
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
        const uint8_t room[3] = {(uint8_t)f0, (uint8_t)f1, (uint8_t)f2};
        PyObject *t = legal_tuple(n, k, room);
        if (t == NULL)
            return NULL;
        if (*slot == NULL) /* (free-threaded: another thread may have filled it) */
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
    if (!PyDict_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "observe(): the template must be a dict");
        return NULL;
    }
    if (!game_of(args[0], &g) || intern_all(st->keys, OBS_KEYS, OBS_NKEYS) < 0)
        return NULL;
    seat = PyLong_AsLong(args[1]);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat >= g.players) {
        PyErr_SetString(PyExc_ValueError, "observe(): not a seat of the game");
        return NULL;
    }
    if (ofc_game_observe(&g, (uint32_t)seat, &o) != 0) {
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
    Py_ssize_t n = seq_size(seq);
    (void)module;
    if (n < 1 || n > 5 || !fast_cards(seq, n, c))
        Py_RETURN_NONE;
    return int_tuple(c, n);
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
 * when the engine accepted the move (else buf is unchanged).  With booked (a list, or
 * NULL: none), an accepted move is appended to it first, as `move`, in the same call:
 * no bytecode, so no signal handler's KeyboardInterrupt, runs between the engine's
 * move and its booking (an append that fails leaves buf unchanged). */
static PyObject *apply_to(PyObject *buf, const uint8_t *dest, uint32_t n, long action,
                          PyObject *booked, PyObject *move)
{
    ofc_game g;
    int32_t status;
    if (!game_of(buf, &g))
        return NULL;
    status = dest != NULL ? ofc_game_apply_placement(&g, dest, n)
                         : ofc_game_apply_action(&g, (uint32_t)action);
    if (status == 0) {
        if (booked != NULL && PyList_Append(booked, move) != 0)
            return NULL;
        memcpy(PyByteArray_AsString(buf), &g, sizeof g);
    }
    return PyLong_FromLong(status);
}

/* booked of place() / act(): args[i] when there and a list; NULL when it is None or
 * not there (no booking); -1 and a TypeError for anything else. */
static int booked_arg(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t i,
                      PyObject **booked)
{
    *booked = nargs > i && args[i] != Py_None ? args[i] : NULL;
    if (*booked != NULL && !PyList_CheckExact(*booked)) {
        PyErr_SetString(PyExc_TypeError, "booked must be a list or None");
        return -1;
    }
    return 0;
}

/* place(game, dest[, booked, move]) -> status: ofc_game_apply_placement on the
 * ofc_game held by the bytearray `game`; dest a tuple of up to 17 ints 0..255 (one per
 * dealt card; the engine refuses those outside 0..3).  TypeError / ValueError for
 * another dest, without touching the game.  An accepted move is appended to the list
 * booked, as move, in the same call (apply_to); booked None: no booking (move unused).
 * Booked and move come together: 2 or 4 arguments (as _portable.place). */
static PyObject *speedups_place(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t dest[OFC_GAME_MAX_DEALT];
    Py_ssize_t n, i;
    PyObject *booked;
    if (nargs != 2 && nargs != 4)
        return PyErr_Format(PyExc_TypeError, "place() takes 2 or 4 arguments (%zd given)",
                            nargs);
    if (booked_arg(args, nargs, 2, &booked) != 0)
        return NULL;
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
    (void)module;
    return apply_to(args[0], dest, (uint32_t)n, 0, booked, booked ? args[3] : NULL);
}

/* act(game, action[, booked]) -> status: ofc_game_apply_action on the ofc_game held by
 * the bytearray `game` (action an int; the engine checks its range); an accepted
 * action is appended to the list booked in the same call (apply_to); booked None or
 * not there: no booking (as _portable.act). */
static PyObject *speedups_act(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long a;
    PyObject *booked;
    if (nargs != 2 && nargs != 3)
        return PyErr_Format(PyExc_TypeError, "act() takes 2 or 3 arguments (%zd given)",
                            nargs);
    if (booked_arg(args, nargs, 2, &booked) != 0)
        return NULL;
    a = PyLong_CheckExact(args[1]) ? PyLong_AsLong(args[1]) : -1;
    if (a < 0 || a >= OFC_ACTION_SPACE) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "act(): an action id outside the action space");
        return NULL;
    }
    (void)module;
    return apply_to(args[0], NULL, 0, a, booked, args[1]);
}

/* 1 and the 13 card ids of a complete board in out[] when cards is a tuple of 13
 * ints 0..255, else 0 (no exception).  The ids are checked once, by the scorer. */
static int board_bytes(PyObject *cards, uint8_t *out)
{
    Py_ssize_t i;
    if (!PyTuple_CheckExact(cards) || PyTuple_Size(cards) != 13)
        return 0;
    for (i = 0; i < 13; i++) {
        PyObject *c = PyTuple_GetItem(cards, i);
        long v = PyLong_CheckExact(c) ? PyLong_AsLong(c) : -1;
        if (v < 0 || v > 255) {
            PyErr_Clear();
            return 0;
        }
        out[i] = (uint8_t)v;
    }
    return 1;
}

/* A new tuple of three small ints. */
static PyObject *int3(long a, long b, long c)
{
    PyObject *t = PyTuple_New(3);
    PyObject *x[3];
    int i;
    if (t == NULL)
        return NULL;
    x[0] = PyLong_FromLong(a), x[1] = PyLong_FromLong(b), x[2] = PyLong_FromLong(c);
    for (i = 0; i < 3; i++) {
        if (x[i] == NULL) {
            Py_DECREF(t);
            Py_XDECREF(x[(i + 1) % 3]);
            Py_XDECREF(x[(i + 2) % 3]);
            return NULL;
        }
    }
    for (i = 0; i < 3; i++)
        PyTuple_SetItem(t, i, x[i]);
    return t;
}

/* The fields of ofc_fast.PairScore of a scored pair, as a new dict. */
static PyObject *pair_dict(speedups_state *st, const ofc_pair_detail *d)
{
    const int16_t *ra = d->a.royalty, *rb = d->b.royalty;
    PyObject *values[PAIR_NFIELDS], *ya, *yb, *dict;
    int i, ok;
    if (intern_all(st->pair_keys, PAIR_KEYS, PAIR_NKEYS) < 0)
        return NULL;
    ya = int3(ra[0], ra[1], ra[2]);
    yb = int3(rb[0], rb[1], rb[2]);
    values[0] = PyLong_FromLong(d->score.net);
    values[1] = int3(d->score.rows[0], d->score.rows[1], d->score.rows[2]);
    values[2] = PyLong_FromLong(d->score.sweep);
    values[3] = PyLong_FromLong(d->score.row_points);
    values[4] = PyLong_FromLong(d->score.bonus);
    values[5] = ya != NULL && yb != NULL ? PyTuple_Pack(2, ya, yb) : NULL;
    values[6] = PyTuple_Pack(2, d->a.foul == 1 ? Py_True : Py_False,
                             d->b.foul == 1 ? Py_True : Py_False);
    Py_XDECREF(ya);
    Py_XDECREF(yb);
    dict = PyDict_New();
    ok = dict != NULL;
    for (i = 0; i < PAIR_NFIELDS; i++) {
        if (values[i] == NULL || (ok && PyDict_SetItem(dict, st->pair_keys[i], values[i]) < 0))
            ok = 0;
        Py_XDECREF(values[i]);
    }
    if (!ok) {
        Py_XDECREF(dict);
        return NULL;
    }
    return dict;
}

/* A new instance of cls (a class whose instances have a __dict__: PairScore) with
 * the fields of the scored pair as its __dict__, set as object.__setattr__ would
 * (no __init__, no __setattr__ of the class). */
static PyObject *pair_object(speedups_state *st, PyObject *cls, const ofc_pair_detail *d)
{
    allocfunc alloc = (allocfunc)(uintptr_t)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
    PyObject *dict, *obj;
    if (alloc == NULL) {
        PyErr_SetString(PyExc_TypeError, "score_pair(): the type cannot be allocated");
        return NULL;
    }
    if ((dict = pair_dict(st, d)) == NULL)
        return NULL;
    obj = alloc((PyTypeObject *)cls, 0);
    if (obj != NULL && PyObject_GenericSetAttr(obj, st->pair_keys[PAIR_NFIELDS], dict) < 0) {
        Py_DECREF(obj);
        obj = NULL;
    }
    Py_DECREF(dict);
    return obj;
}

/* score_pair(cls, a, b, rules) -> cls | None: board a against board b (each a tuple
 * of its 13 card ids, row order) under the ofc_rules at address `rules` (an int that
 * ofc_fast._native._fast.rules_handle gives, kept alive by its caller), scored in
 * one call of ofc_score_boards_detail, which checks the 26 cards; a new cls
 * (ofc_fast.PairScore) holding the fields, or None when a board is not 13 ints or
 * the scorer refused the boards (the caller then names what is wrong). */
static PyObject *speedups_score_pair(PyObject *module, PyObject *const *args,
                                     Py_ssize_t nargs)
{
    uint8_t cards[26];
    ofc_pair_detail d;
    unsigned long long address;
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "score_pair() takes 4 arguments (%zd given)",
                            nargs);
    if (!PyType_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "score_pair(): expected a class");
        return NULL;
    }
    address = PyLong_AsUnsignedLongLong(args[3]);
    if (address == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    if (address == 0) {
        PyErr_SetString(PyExc_ValueError, "score_pair(): no rules");
        return NULL;
    }
    if (!board_bytes(args[1], cards) || !board_bytes(args[2], cards + 13)
        || ofc_score_boards_detail((const ofc_rules *)(uintptr_t)address, cards, &d)
               != OFC_OK)
        Py_RETURN_NONE;
    return pair_object(state_of(module), args[0], &d);
}

static int speedups_traverse(PyObject *module, visitproc visit, void *arg)
{
    speedups_state *st = state_of(module);
    int i;
    if (st) {
        for (i = 0; i < LEGAL_SHAPES; i++)
            Py_VISIT(st->legal[i]);
    }
    return 0;
}

static int speedups_clear(PyObject *module)
{
    speedups_state *st = state_of(module);
    int i;
    if (st) {
        for (i = 0; i < OBS_NKEYS; i++)
            Py_CLEAR(st->keys[i]);
        for (i = 0; i < PAIR_NKEYS; i++)
            Py_CLEAR(st->pair_keys[i]);
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
     "rank5(cards) -> int: strength of 5 distinct int card ids, else -1."},
    {"rank3", (PyCFunction)(void (*)(void))speedups_rank3, METH_FASTCALL,
     "rank3(cards) -> int: strength of 3 distinct int card ids, else -1."},
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
    {"place", (PyCFunction)(void (*)(void))speedups_place, METH_FASTCALL,
     "place(game, dest[, booked, move]) -> status: apply a placement to the ofc_game in "
     "a bytearray (an accepted one: move appended to the list booked, in the same "
     "call)."},
    {"act", (PyCFunction)(void (*)(void))speedups_act, METH_FASTCALL,
     "act(game, action[, booked]) -> status: apply an action id to the ofc_game in a "
     "bytearray (an accepted one: appended to the list booked, in the same call)."},
    {"plain", speedups_plain_data, METH_O,
     "plain(obs) -> bool: True when the observation dict holds no NumPy value where "
     "plain_observation reads."},
    {"plain_seat", (PyCFunction)(void (*)(void))speedups_plain_seat, METH_FASTCALL,
     "plain_seat(obs, most) -> int: the observed seat when plain(obs) and its seat and "
     "players are in range (one board per player), else -1."},
    {"plain_copy", speedups_plain_copy, METH_O,
     "plain_copy(value) -> object: new dicts and lists all the way down, the other "
     "values as they are."},
    {"score_pair", (PyCFunction)(void (*)(void))speedups_score_pair, METH_FASTCALL,
     "score_pair(cls, a, b, rules) -> cls | None: a PairScore of two complete boards' "
     "card ids under the ofc_rules at address rules (None: refused)."},
    {NULL, NULL, 0, NULL}};

static PyModuleDef_Slot speedups_slots[] = {
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL}};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT, "ofc_fast._native._speedups",
    "Per-call builtins of ofc_fast: rankers, observation, legal actions, moves, pair "
    "scoring.",
    sizeof(speedups_state),
    speedups_methods, speedups_slots, speedups_traverse, speedups_clear, speedups_free};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
