/* _plain_data.c -- the builtins of ofc_fast._native._speedups that read and copy
 * plain observation data (dicts and lists of JSON-like values), without the engine:
 *
 * plain() tells whether an observation dict holds only plain values where
 * ofc_fast.game.observation.plain_observation reads (a bot's check of every
 * decision: False sends it to its full reading); plain_seat() is that check and the
 * observed seat's in one call (RandomBot's every decision); plain_copy() copies the
 * rule set an observation carries (new dicts and lists all the way down), once a
 * decision.  Their portable twins are ofc_fast._native._portable.plain, plain_seat
 * and plain_copy. */
#include <Python.h>

/* Called by the method table of _speedups.c, which declares them too. */
PyObject *speedups_plain_data(PyObject *module, PyObject *obs);
PyObject *speedups_plain_seat(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *speedups_plain_copy(PyObject *module, PyObject *value);
/* Defined in _speedups.c: its module state's interned keys (borrowed): "boards",
 * "face_down_counts", "seat" and "players", in keys[0..3]. */
int speedups_plain_keys(PyObject *module, PyObject **keys);

/* 1 when v is of a type an observation's value has as observe() makes it: an exact
 * int, bool, None, list, str, float or dict (no NumPy array or scalar). */
static int plain_value(PyObject *v)
{
    return v == Py_None || PyLong_CheckExact(v) || PyBool_Check(v) || PyList_CheckExact(v)
           || PyUnicode_CheckExact(v) || PyFloat_CheckExact(v) || PyDict_CheckExact(v);
}

/* 1 when every item of the list `list` is an exact list. */
static int lists_only(PyObject *list)
{
    Py_ssize_t i, n = PyList_Size(list);
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GetItem(list, i);
        if (item == NULL || !PyList_CheckExact(item)) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

/* A new reference to dict[key], or NULL: none (no error set) or an error (a key's
 * __eq__ raised).  A new reference, not a borrowed one: a key's __eq__ run by a later
 * lookup may remove this value from the dict. */
static PyObject *item_ref(PyObject *dict, PyObject *key)
{
    PyObject *value = PyDict_GetItemWithError(dict, key);
    Py_XINCREF(value);
    return value;
}

/* 1 when every value of the exact dict obs is of a plain type (plain_value): one
 * walk of the dict, no list of its values made (plain_value runs no Python code, so
 * the dict cannot change during the walk where the GIL holds; a free-threaded build
 * holds the dict's critical section, as PyDict_Values did). */
static int plain_values(PyObject *obs)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int ok = 1;
#ifdef Py_GIL_DISABLED
    Py_BEGIN_CRITICAL_SECTION(obs);
#endif
    while (ok && PyDict_Next(obs, &pos, &key, &value))
        ok = plain_value(value);
#ifdef Py_GIL_DISABLED
    Py_END_CRITICAL_SECTION();
#endif
    return ok;
}

/* 1 when obs is a dict whose values are all of plain types (plain_value), whose
 * "boards" is a list of lists of lists and whose "face_down_counts" is a list of
 * lists (*nboards: the boards' count); 0 when not; -1 on error (a key's __eq__
 * raised). */
static int plain_check(PyObject *module, PyObject *obs, Py_ssize_t *nboards)
{
    Py_ssize_t i, n;
    PyObject *keys[4], *boards, *counts;
    int ok;
    if (!PyDict_CheckExact(obs) || !plain_values(obs))
        return 0;
    if (speedups_plain_keys(module, keys) < 0)
        return -1;
    boards = item_ref(obs, keys[0]);
    if (boards == NULL && PyErr_Occurred())
        return -1;
    counts = item_ref(obs, keys[1]);
    if (counts == NULL && PyErr_Occurred()) {
        Py_XDECREF(boards);
        return -1;
    }
    ok = boards != NULL && counts != NULL && PyList_CheckExact(boards)
         && PyList_CheckExact(counts) && lists_only(boards) && lists_only(counts);
    n = ok ? PyList_Size(boards) : 0;
    for (i = 0; ok && i < n; i++)
        ok = lists_only(PyList_GetItem(boards, i)); /* (no Python code runs here) */
    *nboards = n;
    Py_XDECREF(boards);
    Py_XDECREF(counts);
    return ok;
}

/* plain(obs) -> bool: True when obs is a dict whose values are all of plain types
 * (plain_value), whose "boards" is a list of lists of lists and whose
 * "face_down_counts" is a list of lists: nothing that
 * ofc_fast.game.observation.plain_observation would turn into a plain value (a
 * Game's observation, or JSON's; the rows' items are not looked at).  False sends
 * the caller to its full reading. */
PyObject *speedups_plain_data(PyObject *module, PyObject *obs)
{
    Py_ssize_t n;
    int ok = plain_check(module, obs, &n);
    return ok < 0 ? NULL : PyBool_FromLong(ok);
}

/* The exact int dict[key] within 0..most, else -1 (none, another type, out of
 * range); -2 on error (a key's __eq__ raised). */
static long small_int(PyObject *dict, PyObject *key, long most)
{
    int overflow = 0;
    long v;
    PyObject *value = item_ref(dict, key);
    if (value == NULL)
        return PyErr_Occurred() ? -2 : -1;
    v = PyLong_CheckExact(value) ? PyLong_AsLongAndOverflow(value, &overflow) : -1;
    Py_DECREF(value);
    return overflow || v < 0 || v > most ? -1 : v;
}

/* plain_seat(obs, most) -> int: obs's "seat" when plain(obs) is True and its "seat"
 * and "players" are exact ints with 0 <= seat < players, 2 <= players <= most and
 * one board per player (ofc_fast.bots.base.observed_seat's quick test); else -1,
 * which sends the caller to plain_observation and observed_seat. */
PyObject *speedups_plain_seat(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t nboards = 0;
    PyObject *keys[4];
    long most, seat, players = -1;
    int ok;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "plain_seat(obs, most) takes 2 arguments");
        return NULL;
    }
    most = PyLong_AsLong(args[1]);
    if (most == -1 && PyErr_Occurred())
        return NULL;
    ok = plain_check(module, args[0], &nboards);
    if (ok <= 0)
        return ok < 0 ? NULL : PyLong_FromLong(-1);
    if (speedups_plain_keys(module, keys) < 0)
        return NULL;
    if ((seat = small_int(args[0], keys[2], most)) == -2
        || (players = small_int(args[0], keys[3], most)) == -2)
        return NULL;
    ok = seat >= 0 && seat < players && players >= 2 && players == nboards;
    return PyLong_FromLong(ok ? seat : -1);
}

/* 1 when v is an exact dict or list (what plain_copy copies). */
static int is_container(PyObject *v)
{
    return PyDict_CheckExact(v) || PyList_CheckExact(v);
}

/* plain_copy(value) -> object: a copy of plain JSON-like data (the rule set an
 * observation carries): new dicts and lists (exact ones) all the way down, every
 * other value as it is (a new reference); NULL and RecursionError past the
 * interpreter's depth.  Each level is first copied whole (PyDict_Copy, a slice:
 * one step of the original), then its containers replaced in the private copy. */
PyObject *speedups_plain_copy(PyObject *module, PyObject *value)
{
    PyObject *out, *key, *item, *copy;
    Py_ssize_t pos = 0, i, n;
    int is_dict = PyDict_CheckExact(value);
    if (!is_dict && !PyList_CheckExact(value)) {
        Py_INCREF(value);
        return value;
    }
    if (Py_EnterRecursiveCall(" in plain_copy()"))
        return NULL;
    out = is_dict ? PyDict_Copy(value) : PyList_GetSlice(value, 0, PY_SSIZE_T_MAX);
    if (is_dict) {
        /* (a value replaced under its key: the keys, and so the walk, unchanged) */
        while (out != NULL && PyDict_Next(out, &pos, &key, &item)) {
            if (!is_container(item))
                continue;
            copy = speedups_plain_copy(module, item);
            if (copy == NULL || PyDict_SetItem(out, key, copy) < 0)
                Py_CLEAR(out);
            Py_XDECREF(copy);
        }
    } else {
        n = out == NULL ? 0 : PyList_Size(out);
        for (i = 0; out != NULL && i < n; i++) {
            item = PyList_GetItem(out, i);
            if (item == NULL || !is_container(item))
                continue;
            copy = speedups_plain_copy(module, item);
            if (copy == NULL || PyList_SetItem(out, i, copy) < 0) /* (steals copy) */
                Py_CLEAR(out);
        }
    }
    Py_LeaveRecursiveCall();
    return out;
}
