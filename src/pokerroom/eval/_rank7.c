/* One seven-card hand from Python in one C call: pokerroom.eval.fast.rank7_function (docs/eval-speed.md).
 *
 * The lookups are those of the Python ranker in fast.py, on the same tables (built in Python by
 * pokerroom.eval.tables and handed over once): a key sum over the cards, a flush test on the suit
 * counts in the key's high bits, then one lookup in the flush table or two in the rank-multiset index
 * and one in the rule's values. Deuce-to-seven takes the best of the 21 five-card hands, as fast.py
 * does. Each card must be an int from 0 to 51; any lookup out of its table (repeated cards) is a
 * ValueError, never a read outside the tables. The build is optional: without a C compiler fast.py
 * keeps the Python function.
 *
 * The same tables rank an Omaha hand (pokerroom.eval.fast.omaha_function): exactly two of the hole
 * cards and three of the board, the best of every such five; the keys and suit masks of the hole pairs
 * and of the board triples are summed once each, so each of the (up to 150) fives is one addition and
 * its lookups.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FLUSHES = 0, RANKS_ONLY = 1, BEST_OF_FIVE = 2, OMAHA_FLUSHES = 3, OMAHA_RANKS_ONLY = 4 };

enum { MAX_HOLE = 6, MAX_BOARD = 5 };

typedef struct {
    int mode;
    int hole; /* Omaha: the number of hole cards, first among the arguments */
    int n_lo, n_hi, n_ms, n_fl;
    uint64_t keys[52];
    uint64_t bits[52];
    int32_t *lo, *hi, *ms, *fl; /* one allocation, freed with the capsule */
} Tables;

static const char *CAPSULE = NULL; /* unnamed capsules: PyCapsule_GetPointer compares nothing */

static void tables_free(PyObject *capsule) {
    Tables *t = (Tables *)PyCapsule_GetPointer(capsule, CAPSULE);
    if (t != NULL) {
        free(t->lo);
        free(t);
    }
}

static PyObject *not_a_hand(void) {
    PyErr_SetString(PyExc_ValueError, "not a hand of distinct cards");
    return NULL;
}

/* The rank of cards given their key sum and suit mask (the tables are those of their number of cards);
 * -1 when a lookup falls outside its table. */
static int64_t lookup(const Tables *t, uint64_t key, uint64_t mask, int flushes) {
    uint64_t over = ((key >> 40) + 0x3333) & 0x8888; /* a suit with five or more cards */
    if (flushes && over) {
        int s = 0;
        while (over >> (4 * s + 4)) s++; /* the highest marked nibble: (bit_length - 4) / 4 */
        uint64_t at = (mask >> (16 * s)) & 0x1FFF;
        if (at >= (uint64_t)t->n_fl) return -1;
        return t->fl[at];
    }
    uint64_t a = key & 0x1FFFF, b = (key >> 20) & 0x3FFF;
    if (a >= (uint64_t)t->n_lo || b >= (uint64_t)t->n_hi) return -1;
    int64_t at = (int64_t)t->lo[a] + t->hi[b];
    if (at < 0 || at >= t->n_ms) return -1;
    return t->ms[at];
}

/* The rank of n cards (5 or 7) under the tables; -1 when a lookup falls outside its table. */
static int64_t rank_of(const Tables *t, const int *c, int n, int flushes) {
    uint64_t key = 0, mask = 0;
    for (int i = 0; i < n; i++) {
        key += t->keys[c[i]];
        mask |= t->bits[c[i]];
    }
    return lookup(t, key, mask, flushes);
}

/* Reads n card indices (0..51) into c; -1 with an exception set otherwise. */
static int read_cards(PyObject *const *args, Py_ssize_t n, int *c) {
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(args[i]);
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x < 0 || x > 51) {
            PyErr_SetString(PyExc_ValueError, "a card index must be 0..51");
            return -1;
        }
        c[i] = (int)x;
    }
    return 0;
}

static PyObject *omaha(PyObject *capsule, PyObject *const *args, Py_ssize_t nargs) {
    const Tables *t = (const Tables *)PyCapsule_GetPointer(capsule, CAPSULE);
    if (t == NULL) return NULL;
    int hole = t->hole;
    Py_ssize_t board = nargs - hole;
    if (board < 3 || board > MAX_BOARD) {
        PyErr_Format(PyExc_TypeError, "expected %d hole cards and 3 to 5 board cards, got %zd card indices",
                     hole, nargs);
        return NULL;
    }
    int c[MAX_HOLE + MAX_BOARD];
    if (read_cards(args, nargs, c) < 0) return NULL;
    uint64_t pair_key[15], pair_mask[15], triple_key[10], triple_mask[10];
    int pairs = 0, triples = 0;
    for (int i = 0; i < hole; i++)
        for (int j = i + 1; j < hole; j++) {
            pair_key[pairs] = t->keys[c[i]] + t->keys[c[j]];
            pair_mask[pairs++] = t->bits[c[i]] | t->bits[c[j]];
        }
    const int *b = c + hole;
    for (int i = 0; i < board; i++)
        for (int j = i + 1; j < board; j++)
            for (int k = j + 1; k < board; k++) {
                triple_key[triples] = t->keys[b[i]] + t->keys[b[j]] + t->keys[b[k]];
                triple_mask[triples++] = t->bits[b[i]] | t->bits[b[j]] | t->bits[b[k]];
            }
    int flushes = t->mode == OMAHA_FLUSHES;
    int64_t best = -1;
    for (int i = 0; i < pairs; i++)
        for (int j = 0; j < triples; j++) {
            int64_t r = lookup(t, pair_key[i] + triple_key[j], pair_mask[i] | triple_mask[j], flushes);
            if (r < 0) return not_a_hand();
            if (r > best) best = r;
        }
    return PyLong_FromLongLong(best);
}

static PyMethodDef OMAHA_DEF = {"omaha", (PyCFunction)(void (*)(void))omaha, METH_FASTCALL,
                                "omaha(*hole, *board) -> rank: the hole cards' indices, then the board's "
                                "(3 to 5), each 0..51."};

static PyObject *rank7(PyObject *capsule, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "expected 7 card indices, got %zd", nargs);
        return NULL;
    }
    const Tables *t = (const Tables *)PyCapsule_GetPointer(capsule, CAPSULE);
    if (t == NULL) return NULL;
    int c[7];
    if (read_cards(args, 7, c) < 0) return NULL;
    int64_t best;
    if (t->mode == BEST_OF_FIVE) {
        best = -1;
        int five[5];
        for (int skip1 = 0; skip1 < 7; skip1++) {
            for (int skip2 = skip1 + 1; skip2 < 7; skip2++) {
                int k = 0;
                for (int i = 0; i < 7; i++)
                    if (i != skip1 && i != skip2) five[k++] = c[i];
                int64_t r = rank_of(t, five, 5, 1);
                if (r < 0) return not_a_hand();
                if (r > best) best = r;
            }
        }
    } else {
        best = rank_of(t, c, 7, t->mode == FLUSHES);
        if (best < 0) return not_a_hand();
    }
    return PyLong_FromLongLong(best);
}

static PyMethodDef RANK7_DEF = {"rank7", (PyCFunction)(void (*)(void))rank7, METH_FASTCALL,
                                "rank7(a, b, c, d, e, f, g) -> rank: seven card indices (0..51)."};

/* Copies a buffer of int32 (or, for keys and bits, 52 uint64) into dst; returns its item count. */
static Py_ssize_t copy_buffer(PyObject *obj, void *dst, Py_ssize_t itemsize, Py_ssize_t exact) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    Py_ssize_t n = view.len / itemsize;
    if (view.len % itemsize || (exact >= 0 && n != exact)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "a table has the wrong size");
        return -1;
    }
    if (dst != NULL) memcpy(dst, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return n;
}

static PyObject *make(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *keys, *bits, *lo, *hi, *ms, *fl;
    int mode, hole = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOi|i:make", &keys, &bits, &lo, &hi, &ms, &fl, &mode, &hole)) return NULL;
    if (mode < FLUSHES || mode > OMAHA_RANKS_ONLY) {
        PyErr_SetString(PyExc_ValueError, "unknown mode");
        return NULL;
    }
    int is_omaha = mode >= OMAHA_FLUSHES;
    if (is_omaha ? (hole < 2 || hole > MAX_HOLE) : hole != 0) {
        PyErr_SetString(PyExc_ValueError, "an Omaha ranker takes 2 to 6 hole cards; the others none");
        return NULL;
    }
    Tables *t = (Tables *)calloc(1, sizeof(Tables));
    if (t == NULL) return PyErr_NoMemory();
    t->mode = mode;
    t->hole = hole;
    Py_ssize_t n_lo = copy_buffer(lo, NULL, 4, -1), n_hi = n_lo < 0 ? -1 : copy_buffer(hi, NULL, 4, -1);
    Py_ssize_t n_ms = n_hi < 0 ? -1 : copy_buffer(ms, NULL, 4, -1);
    Py_ssize_t n_fl = n_ms < 0 ? -1 : copy_buffer(fl, NULL, 4, -1);
    if (n_fl < 0 || copy_buffer(keys, t->keys, 8, 52) < 0 || copy_buffer(bits, t->bits, 8, 52) < 0) {
        free(t);
        return NULL;
    }
    if (n_lo > INT32_MAX || n_hi > INT32_MAX || n_ms > INT32_MAX || n_fl > INT32_MAX) {
        free(t);
        PyErr_SetString(PyExc_ValueError, "a table is too large");
        return NULL;
    }
    t->lo = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n_lo + n_hi + n_ms + n_fl + 1));
    if (t->lo == NULL) {
        free(t);
        return PyErr_NoMemory();
    }
    t->hi = t->lo + n_lo;
    t->ms = t->hi + n_hi;
    t->fl = t->ms + n_ms;
    t->n_lo = (int)n_lo, t->n_hi = (int)n_hi, t->n_ms = (int)n_ms, t->n_fl = (int)n_fl;
    if (copy_buffer(lo, t->lo, 4, n_lo) < 0 || copy_buffer(hi, t->hi, 4, n_hi) < 0 ||
        copy_buffer(ms, t->ms, 4, n_ms) < 0 || copy_buffer(fl, t->fl, 4, n_fl) < 0) {
        free(t->lo);
        free(t);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(t, CAPSULE, tables_free);
    if (capsule == NULL) {
        free(t->lo);
        free(t);
        return NULL;
    }
    PyObject *fn = PyCFunction_NewEx(is_omaha ? &OMAHA_DEF : &RANK7_DEF, capsule, NULL);
    Py_DECREF(capsule); /* the function holds it */
    return fn;
}

static PyMethodDef METHODS[] = {
    {"make", make, METH_VARARGS,
     "make(keys, bits, lo, hi, ms, fl, mode, hole=0) -> a ranker over these tables (keys and bits: 52 "
     "uint64; the others int32; mode 0 flushes count, 1 ranks only, 2 best of five: rank7(a, ..., g); "
     "3 Omaha with flushes, 4 Omaha ranks only: omaha(*hole, *board), with `hole` hole cards)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_rank7", NULL, -1, METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__rank7(void) { return PyModule_Create(&MODULE); }
