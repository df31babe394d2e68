/* _plain_data.c -- the builtins of ofc_fast._native._speedups that read and copy
 * plain observation data (dicts and lists of JSON-like values), without the engine:
 *
 * plain() tells whether an observation dict holds only plain values where
 * ofc_fast.game.observation.plain_observation reads (a bot's check of every
 * decision: False sends it to its full reading); plain_copy() copies the rule set
 * an observation carries (new dicts and lists all the way down), once a decision.
 * Their portable twins are ofc_fast._native._portable.plain and plain_copy. */
#include <Python.h>

/* Called by the method table of _speedups.c, which declares them too. */
PyObject *speedups_plain_data(PyObject *module, PyObject *obs);
PyObject *speedups_plain_copy(PyObject *module, PyObject *value);
/* Defined in _speedups.c: its module state's interned keys (borrowed). */
int speedups_plain_keys(PyObject *module, PyObject **boards, PyObject **counts);

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

/* plain(obs) -> bool: True when obs is a dict whose values are all of plain types
 * (plain_value), whose "boards" is a list of lists of lists and whose
 * "face_down_counts" is a list of lists: nothing that
 * ofc_fast.game.observation.plain_observation would turn into a plain value (a
 * Game's observation, or JSON's; the rows' items are not looked at).  False sends
 * the caller to its full reading. */
PyObject *speedups_plain_data(PyObject *module, PyObject *obs)
{
    Py_ssize_t i, n;
    PyObject *boards_key, *counts_key, *boards, *counts;
    int ok;
    if (!PyDict_CheckExact(obs) || !plain_values(obs))
        Py_RETURN_FALSE;
    if (speedups_plain_keys(module, &boards_key, &counts_key) < 0)
        return NULL;
    boards = item_ref(obs, boards_key);
    if (boards == NULL && PyErr_Occurred())
        return NULL;
    counts = item_ref(obs, counts_key);
    if (counts == NULL && PyErr_Occurred()) {
        Py_XDECREF(boards);
        return NULL;
    }
    ok = boards != NULL && counts != NULL && PyList_CheckExact(boards)
         && PyList_CheckExact(counts) && lists_only(boards) && lists_only(counts);
    n = ok ? PyList_Size(boards) : 0;
    for (i = 0; ok && i < n; i++)
        ok = lists_only(PyList_GetItem(boards, i)); /* (no Python code runs here) */
    Py_XDECREF(boards);
    Py_XDECREF(counts);
    return PyBool_FromLong(ok);
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
