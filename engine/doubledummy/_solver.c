/* The compiled double-dummy search of engine.doubledummy (see solver.py for the Python side).
 *
 * A position is four hands of equal size, a trump suit (or none), the seat on lead at a trick
 * boundary, the "counted" seats (whose tricks are counted) and the "maximizers" (the seats that
 * want the counted seats to take as many tricks as possible; the others want as few). For an
 * ordinary contract both sets are the declaring side; for a misere the counted seat is the
 * declarer and the maximizers are the three others, who try to give it a trick.
 *
 * The search is a zero-window alpha-beta ("can the maximizers make the counted seats take at
 * least k of the tricks left?") over single cards, with:
 *   - a transposition table at trick boundaries holding bounds on the tricks left. A bound is
 *     stored for a class of positions (partition search): the same leader, the same number of
 *     cards of each suit in each hand, and the same owners of the top cards of each suit down to
 *     the lowest card whose rank decided a trick (or a cut-off) in the search that gave it; the
 *     cards below are interchangeable small cards, and a suit none of whose cards decided
 *     anything counts by its lengths alone. Entries therefore serve every target, every lead
 *     and every deal that reaches such a position. A probe reads only the chains of the kinds
 *     (how many top cards of which suits the class fixes) that entries of the same lengths,
 *     leader and context went to;
 *   - equivalent cards: of the cards of one hand that are adjacent in a suit once the cards
 *     already played are left out, only the highest is tried; and, as in the table, once a card
 *     has failed for its player and lies below the lowest card of its suit that decided the
 *     search under it, the same hand's lower cards of that suit are not tried (each gives a
 *     position that differs from the one searched in small cards only);
 *   - sure-trick bounds at each trick: the leader's cashable top cards (side suits too while the
 *     other side still holds trumps, as many as its seats with trumps must follow to), or a
 *     partner's reached with a small card of a suit it heads; and, for either side, the trumps
 *     of one hand less those the other side's higher trumps can beat, which win that many
 *     tricks whatever anyone does (a lone hand's low trumps count when no one has enough trumps
 *     above them); and, where each side plays for its own tricks, a trick for a side not on
 *     lead one of whose seats holds more trumps than its right-hand opponent holds above its
 *     highest, no other opponent holding any (that opponent plays before it to every trick until
 *     its side takes one). A bound that settles the question depends only on the cards it needed;
 *   - move ordering: the lead stored in the table first; then, for the lead, winners to cash
 *     before the other leads, then leads of suits whose top card a partner holds (an entry),
 *     and leads into a ruff last, and within each of these the cards that caused cut-offs
 *     earlier in the same question (history, cleared for each question); after
 *     the lead, first the cards that leave the trick to the player's side with no one still to
 *     play able to take it back, then the others that leave it to that side (win as cheaply as
 *     possible, keep a partner's trick, unload high cards in a misere), history breaking ties.
 *
 * The table (about 16 MB) is allocated on a thread's first search and kept for the life of the
 * thread; each thread has its own. The search runs without the GIL, so several threads search at
 * once (engine.doubledummy.table shares a board's questions between them).
 *
 * Hands cross the boundary as 52-bit masks over Card.index (spades A..2 are bits 0..12, then
 * hearts, diamonds, clubs); inside, each suit is a 13-bit mask whose bit r is rank r + 2, so a
 * higher bit is a higher card. Suits are 0..3 (S, H, D, C) and 4 is no trump.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_TRUMP 4
#define HEAD_BITS 19
#define HEADS (1u << HEAD_BITS)
#define POOL (1u << 17)
#define NONE 0xffffffffu
#define CONTEXT_EXACTLY_ONE 0x800
#define LOWER 1
#define UPPER 2

/* One bound on the counted seats' tricks from a trick boundary, for every position with the same
 * leader, the same number of cards of each suit in each hand, and the same owners of the top
 * depth[suit] cards of each suit (the cards below are "small": which of them a hand holds never
 * decided a trick in the search that gave the bound). */
typedef struct {
    uint64_t lengths;    /* 4 bits per (seat, suit) */
    uint32_t pattern[4]; /* owners of the top cards, 2 bits each from bit 24 down */
    uint8_t depth[4];
    uint16_t context;    /* 0: empty */
    uint8_t leader;
    int8_t bound;
    uint8_t kind;        /* LOWER or UPPER */
    uint8_t best;        /* suit * 16 + relative rank of the best lead found, 0xff when none */
    uint32_t next;       /* the next entry of the same chain, or NONE */
} Entry;

struct Memory;

typedef struct {
    uint16_t h[4][4];   /* [seat][suit] */
    uint64_t lengths;   /* the length of each h[seat][suit], 4 bits at 4 * (seat * 4 + suit) */
    uint16_t table[4];  /* cards of the current trick, by suit */
    int trump;
    int counted;        /* seat bit mask */
    int maximizers;     /* seat bit mask */
    uint16_t context;
    int declarer;       /* exactly-one search only */
    int best_lead;      /* set by the trick's first player on a cut-off */
    uint64_t nodes;
    struct Memory *mem; /* the calling thread's transposition table */
    /* Cut-offs found by each seat's cards, deeper ones weighing more: the move ordering's
     * tie-break. Each question starts it afresh: cut-offs of another question (another side,
     * trump or deal) mislead more than they help. */
    uint32_t history[4][4][16];
    /* The last lead that refuted the other side, by tricks left and leader (suit * 16 + rank, -1
     * for none): tried first after the table's own lead, as it often refutes a neighbouring
     * position too. */
    int killer[14][4];
    int generating_left; /* the tricks left at the trick being generated (the row of `killer`) */
} State;

/* The position at a trick boundary as the table sees it. */
typedef struct {
    uint64_t lengths;
    uint32_t owners[4]; /* owners of every card of the suit, highest first from bit 24 down */
    unsigned suits;     /* the suits that have cards left, as a bit mask */
    uint32_t two, one;  /* the chains of entries that fix two and one top cards of each suit */
    uint64_t key;       /* the hash of lengths, leader and context that every chain starts from */
    uint64_t tops1;     /* the owners of the top card of each suit, a byte per suit */
} Summary;

/* Entries live in two pools, each chained from a head per hash of (lengths, leader, context) and
 * the owners of the top cards of each suit that the entry's class fixes: two of every suit (or
 * all its cards, when fewer), else one of every suit, else one of every suit but the one "free"
 * suit that has cards none of which decided anything; a class with two free suits or more is
 * chained by its lengths alone. This keeps the chains short: walking them, one cache miss per
 * entry, is most of the cost of a probe. A probe follows the position's chain of each kind (at
 * most seven) that entries of the same lengths, leader and context have gone to (`kinds` below
 * keeps those kinds, a byte per hash of the three). New entries go to the current pool; when it
 * is full the other one is emptied and becomes the current one, so the table always keeps the
 * latest half of what it learnt. A pool that holds nothing is not probed. The pools are small
 * enough to stay mostly in a processor's cache, which gains more than the entries a larger table
 * would keep.
 *
 * Each thread that searches has a table of its own (under `memory_key`), allocated on its first
 * search and freed when the thread ends: the search runs without the GIL, so threads search at
 * once. */
#define KIND_BITS 20
typedef struct Memory {
    Entry *tt;
    uint32_t *heads;
    uint32_t current;
    uint32_t used;
    /* Whether a pool holds any entry since it was last emptied (an empty pool is not probed). */
    int filled[2];
    /* For each hash of (lengths, leader, context): the kinds of chain that any entry of such a
     * key went to (bit 0: two top cards, 1: one, 2 + suit: one but the free suit, 6: lengths
     * alone). A probe skips the chains of the kinds never used: one read instead of up to
     * fourteen. Bits are never cleared (a stale bit only costs a probe). */
    uint8_t kinds[1u << KIND_BITS];
} Memory;

/* The key of each thread's Memory, freed when the thread ends. */
static pthread_key_t memory_key;
/* Positions searched by every thread since the module was loaded. */
static uint64_t total_nodes = 0;

static inline uint32_t kinds_slot(uint64_t key) {
    key ^= key >> 29;
    return (uint32_t)((key * 0xBF58476D1CE4E5B9ull) >> (64 - KIND_BITS));
}

static void tt_empty(Memory *mem, uint32_t pool) {
    if (mem->filled[pool]) memset(mem->heads + (size_t)pool * HEADS, 0xff, HEADS * sizeof(uint32_t));
    mem->filled[pool] = 0;
}

static void tt_reset(Memory *mem) {
    tt_empty(mem, 0);
    tt_empty(mem, 1);
    mem->current = 0;
    mem->used = 0;
}

/* Bits set in each 13-bit suit mask: a table, as the build need not target a CPU with POPCNT. */
static uint8_t bits13[1u << 13];

/* For summarize(): the bits of x at the set bits of a mask, packed low (the low 7 and the high
 * 6 bits of a suit apart), and a 7-bit value spread to the even bits of 14. */
static uint8_t pack_low[1u << 7][1u << 7];
static uint8_t pack_high[1u << 6][1u << 6];
static uint16_t spread7[1u << 7];
/* The inverse of the packing: the low bits of x placed at the set bits of a mask, in order. */
static uint8_t unpack_low[1u << 7][1u << 7];
static uint8_t unpack_high[1u << 6][1u << 6];

static void fill_tables(void) {
    for (unsigned x = 1; x < (1u << 13); x++) bits13[x] = (uint8_t)(bits13[x >> 1] + (x & 1u));
    for (unsigned mask = 0; mask < (1u << 7); mask++)
        for (unsigned x = 0; x < (1u << 7); x++) {
            unsigned out = 0, n = 0;
            for (unsigned b = 0; b < 7; b++)
                if ((mask >> b) & 1u) out |= ((x >> b) & 1u) << n++;
            pack_low[mask][x] = (uint8_t)out;
            if (mask < (1u << 6) && x < (1u << 6)) pack_high[mask][x] = (uint8_t)out;
            unsigned placed = 0;
            n = 0;
            for (unsigned b = 0; b < 7; b++)
                if ((mask >> b) & 1u) placed |= ((x >> n++) & 1u) << b;
            unpack_low[mask][x] = (uint8_t)placed;
            if (mask < (1u << 6) && x < (1u << 6)) unpack_high[mask][x] = (uint8_t)placed;
        }
    for (unsigned x = 0; x < (1u << 7); x++) {
        unsigned out = 0;
        for (unsigned b = 0; b < 7; b++) out |= ((x >> b) & 1u) << (2 * b);
        spread7[x] = (uint16_t)out;
    }
}

/* The bits of the 13-bit x at the set bits of rem, packed low. */
static inline unsigned pack13(unsigned x, unsigned rem) {
    return pack_low[rem & 0x7fu][x & 0x7fu] |
           (unsigned)pack_high[rem >> 7][(x >> 7) & 0x3fu] << bits13[rem & 0x7fu];
}

/* The low bits of x placed at the set bits of rem, in order (the inverse of pack13). */
static inline unsigned unpack13(unsigned x, unsigned rem) {
    unsigned low = bits13[rem & 0x7fu];
    return unpack_low[rem & 0x7fu][x & ((1u << low) - 1u)] |
           (unsigned)unpack_high[rem >> 7][(x >> low) & 0x3fu] << 7;
}

static inline uint32_t spread13(unsigned x) {
    return spread7[x & 0x7fu] | (uint32_t)spread7[x >> 7] << 14;
}

static inline int popcount16(unsigned x) { return bits13[x & 0x1fffu]; }
static inline int top_bit(unsigned x) { return 31 - __builtin_clz(x); }

/* --- transposition table ------------------------------------------------------------------- */

static inline uint32_t prefix_mask(int depth) {
    return depth ? (0x3ffffffu >> (26 - 2 * depth)) << (26 - 2 * depth) : 0;
}

/* The chain of an entry that fixes the owners of the top `deep` cards (one or two) of each suit
 * but the `free` ones, which have cards but whose cards decided nothing: entries whose class
 * leaves a suit free would otherwise all share the chain of their lengths alone. */
static inline uint32_t chain_hash(uint64_t key, uint64_t tops, unsigned free, int deep) {
    uint64_t x = key;
    x ^= (tops + 0x632BE59BD9B4E019ull + (uint64_t)(deep | free << 2)) * 0xD6E8FEB86659FD93ull;
    x ^= x >> 31;
    return (uint32_t)(x >> (64 - HEAD_BITS));
}

/* The top-card bytes of a chain (a byte per suit, suit 0 highest) with the `free` suits' left
 * out. */
static inline uint64_t tops_without(uint64_t tops, unsigned free) {
    static const uint64_t keep[16] = {
        0xffffffffull, 0x00ffffffull, 0xff00ffffull, 0x0000ffffull, 0xffff00ffull, 0x00ff00ffull,
        0xff0000ffull, 0x000000ffull, 0xffffff00ull, 0x00ffff00ull, 0xff00ff00ull, 0x0000ff00ull,
        0xffff0000ull, 0x00ff0000ull, 0xff000000ull, 0,
    };
    return tops & keep[free];
}

static uint32_t chain_of(const Summary *m, unsigned free, int deep) {
    uint64_t tops = 0;
    if (deep == 1) {
        tops = m->tops1;
    } else {
        for (int suit = 0; suit < 4; suit++)
            tops = tops << 8 | (m->owners[suit] & prefix_mask(deep)) >> 18;
    }
    return chain_hash(m->key, tops_without(tops, free), free, deep);
}

static void summarize(const State *s, int leader, uint16_t context, Summary *m) {
    uint64_t lengths = s->lengths;
    m->lengths = lengths;
    m->suits = 0;
    for (int suit = 0; suit < 4; suit++) {
        /* Owner 0..3 of each card as two bits (seat 1 or 3, seat 2 or 3), the highest card at
         * bits 25-24 and the others below it in order. */
        unsigned h1 = s->h[1][suit], h2 = s->h[2][suit], h3 = s->h[3][suit];
        unsigned rem = s->h[0][suit] | h1 | h2 | h3;
        uint32_t owners = spread13(pack13(h1 | h3, rem)) | spread13(pack13(h2 | h3, rem)) << 1;
        m->owners[suit] = rem ? owners << (26 - 2 * popcount16(rem)) : 0;
        if (rem) m->suits |= 1u << suit;
    }
    uint64_t x = (lengths ^ ((uint64_t)leader << 62)) * 0x9E3779B97F4A7C15ull;
    m->key = x ^ (uint64_t)context * 0xC2B2AE3D27D4EB4Full;
    uint64_t tops1 = 0, tops2 = 0;
    for (int suit = 0; suit < 4; suit++) {
        tops1 = tops1 << 8 | (m->owners[suit] & prefix_mask(1)) >> 18;
        tops2 = tops2 << 8 | (m->owners[suit] & prefix_mask(2)) >> 18;
    }
    m->tops1 = tops1;
    m->one = chain_hash(m->key, tops1, 0, 1);
    m->two = chain_hash(m->key, tops2, 0, 2);
}

static inline int matches(const Entry *e, const Summary *m, int leader, uint16_t context) {
    if (e->context != context || e->leader != leader || e->lengths != m->lengths) return 0;
    for (int suit = 0; suit < 4; suit++)
        if ((m->owners[suit] & prefix_mask(e->depth[suit])) != e->pattern[suit]) return 0;
    return 1;
}

/* The cards that decided a search, as the lowest of them in each suit: depth of the prefix. */
static int depth_of(const State *s, int suit, uint16_t relevant) {
    unsigned rem = s->h[0][suit] | s->h[1][suit] | s->h[2][suit] | s->h[3][suit];
    return relevant ? popcount16(rem >> __builtin_ctz(relevant)) : 0;
}

/* The lowest card of the top `depth` cards of a suit, as a rank bit (0 for depth 0). */
static uint16_t cut_of(const State *s, int suit, int depth) {
    if (!depth) return 0;
    unsigned rem = s->h[0][suit] | s->h[1][suit] | s->h[2][suit] | s->h[3][suit];
    for (int i = 1; i < depth; i++) rem &= ~(1u << top_bit(rem));
    return (uint16_t)(1u << top_bit(rem));
}

/* A bound that settles "at least k" for this position, or NULL; *hint gets a stored best lead. */
static const Entry *tt_lookup(const State *s, const Summary *m, int leader, uint16_t context,
                              int k, int *hint) {
    Memory *mem = s->mem;
    /* The chains: two top cards of every suit, one, and one of every suit but each set of free
     * suits. Their first entries are most likely cache misses: they are asked for together. */
    uint32_t chains[7];
    int n = 0;
    unsigned used_kinds = mem->kinds[kinds_slot(m->key)];
    if (!used_kinds) return NULL;
    if (used_kinds & 1u) chains[n++] = m->two;
    if (used_kinds & 2u) chains[n++] = m->one;
    for (int suit = 0; suit < 4; suit++)
        if ((m->suits >> suit) & (used_kinds >> (2 + suit)) & 1u)
            chains[n++] = chain_hash(m->key, tops_without(m->tops1, 1u << suit), 1u << suit, 1);
    if (used_kinds & 64u) chains[n++] = chain_hash(m->key, 0, 15, 1);
    uint32_t first[2][7];
    for (uint32_t pool = 0; pool < 2; pool++)
        for (int c = 0; c < n; c++) {
            uint32_t i = mem->filled[pool] ? mem->heads[(size_t)pool * HEADS + chains[c]] : NONE;
            first[pool][c] = i;
            if (i != NONE) __builtin_prefetch(mem->tt + (size_t)pool * POOL + i);
        }
    for (uint32_t order = 0; order < 2; order++) {
        uint32_t pool = mem->current ^ order;
        const Entry *base = mem->tt + (size_t)pool * POOL;
        for (int c = 0; c < n; c++) {
            for (uint32_t i = first[pool][c]; i != NONE; i = base[i].next) {
                const Entry *e = &base[i];
                if (!matches(e, m, leader, context)) continue;
                if (e->kind == LOWER ? e->bound >= k : e->bound < k) return e;
                if (e->best != 0xff) *hint = e->best;
            }
        }
    }
    return NULL;
}

static void tt_store(const State *s, const Summary *m, int leader, uint16_t context, int kind,
                     int bound, const uint16_t *relevant, int best) {
    Memory *mem = s->mem;
    uint8_t depth[4];
    uint32_t pattern[4];
    int deep = 2;
    unsigned free = 0;
    for (int suit = 0; suit < 4; suit++) {
        depth[suit] = (uint8_t)depth_of(s, suit, relevant[suit]);
        pattern[suit] = m->owners[suit] & prefix_mask(depth[suit]);
        int cards = 0;
        for (int p = 0; p < 4; p++) cards += (int)((m->lengths >> (4 * (p * 4 + suit))) & 15u);
        /* The entry's chain: the most top cards (two or one) that its class fixes in every suit
         * but the free ones. */
        if (cards && !depth[suit]) free |= 1u << suit;
        if (depth[suit] < (cards < 2 ? cards : 2)) deep = 1;
    }
    /* A class that leaves two suits or more free goes to the chain of its lengths alone. */
    if (free & (free - 1)) free = 15;
    uint32_t chain = free ? chain_of(m, free, 1)
                          : deep == 2 ? m->two : m->one;
    mem->kinds[kinds_slot(m->key)] |= (uint8_t)(free == 15 ? 64u
                                           : free ? 1u << (2 + __builtin_ctz(free))
                                           : deep == 2 ? 1u : 2u);
    Entry *base = mem->tt + (size_t)mem->current * POOL;
    uint32_t *head = &mem->heads[(size_t)mem->current * HEADS + chain];
    /* Keep the chain short: a bound that an entry already implies (a class at least as wide,
     * a bound at least as strong) is not stored again, and entries that the new bound implies
     * are unlinked. */
    uint32_t *link = head;
    for (uint32_t i = *head; i != NONE; i = base[i].next) {
        Entry *e = &base[i];
        if (e->context != context || e->leader != leader || e->lengths != m->lengths ||
            e->kind != kind) {
            link = &e->next;
            continue;
        }
        int wider = 1, narrower = 1;
        for (int suit = 0; suit < 4; suit++) {
            if (e->depth[suit] > depth[suit] ||
                (pattern[suit] & prefix_mask(e->depth[suit])) != e->pattern[suit])
                wider = 0;
            if (e->depth[suit] < depth[suit] ||
                (e->pattern[suit] & prefix_mask(depth[suit])) != pattern[suit])
                narrower = 0;
        }
        int stronger = kind == LOWER ? e->bound >= bound : e->bound <= bound;
        int weaker = kind == LOWER ? e->bound <= bound : e->bound >= bound;
        if (wider && stronger) {
            if (best != 0xff) e->best = (uint8_t)best;
            return;
        }
        if (narrower && weaker) {
            *link = e->next;
            if (best == 0xff) best = e->best;
            continue;
        }
        link = &e->next;
    }
    if (mem->used == POOL) {
        mem->current ^= 1u;
        tt_empty(mem, mem->current);
        mem->used = 0;
        base = mem->tt + (size_t)mem->current * POOL;
        head = &mem->heads[(size_t)mem->current * HEADS + chain];
    }
    Entry *e = &base[mem->used];
    e->lengths = m->lengths;
    memcpy(e->pattern, pattern, sizeof pattern);
    memcpy(e->depth, depth, sizeof depth);
    e->context = context;
    e->leader = (uint8_t)leader;
    e->bound = (int8_t)bound;
    e->kind = (uint8_t)kind;
    e->best = (uint8_t)best;
    e->next = *head;
    *head = mem->used++;
    mem->filled[mem->current] = 1;
}

/* --- helpers ------------------------------------------------------------------------------- */

static inline int on(int mask, int seat) { return (mask >> seat) & 1; }

/* Whether a trick won by `winner` is what `seat` plays for. */
static inline int good_for(const State *s, int seat, int winner) {
    return on(s->counted, winner) == on(s->maximizers, seat);
}

static inline unsigned remaining(const State *s, int suit) {
    return s->h[0][suit] | s->h[1][suit] | s->h[2][suit] | s->h[3][suit] | s->table[suit];
}

/* The highest card of each run of `hand`'s cards that no other unplayed card separates: the
 * cards of the hand whose next higher unplayed card (if any) is not the hand's. */
static unsigned representatives(unsigned hand, unsigned rem) {
    /* With the unplayed cards packed together, a card of the hand whose next bit is not. */
    unsigned packed = pack13(hand, rem);
    return unpack13(packed & ~(packed >> 1), rem);
}


/* With the other side still holding trumps: top cards of side suits that the leader cashes before
 * anyone of that side can ruff them (each of its seats with trumps must follow to as many), as
 * long as every partner of the leader has a card other than a trump to play to each of those
 * tricks (a partner with only trumps would have to ruff and take the lead). `relevant` gets the
 * lowest top card counted in each suit. */
static int safe_side_tricks(const State *s, int leader, int skip, uint16_t *relevant) {
    int total = 0;
    uint16_t lowest[4] = {0, 0, 0, 0};
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = s->h[leader][suit];
        if (suit == s->trump || suit == skip || !mine) continue;
        int limit = 13;
        unsigned others = 0;
        for (int p = 0; p < 4; p++) {
            if (p == leader) continue;
            others |= s->h[p][suit];
            if (good_for(s, leader, p) || !s->h[p][s->trump]) continue;
            int n = popcount16(s->h[p][suit]);
            if (n < limit) limit = n;
        }
        unsigned rem = mine | others;
        int safe = 0;
        while (rem && safe < limit) {
            int b = top_bit(rem);
            if (!((mine >> b) & 1u)) break;
            safe++;
            lowest[suit] = (uint16_t)(1u << b);
            rem &= ~(1u << b);
        }
        total += safe;
    }
    if (!total) return 0;
    for (int p = 0; p < 4; p++) {
        if (p == leader || !good_for(s, leader, p)) continue;
        int plain = 0;
        for (int suit = 0; suit < 4; suit++)
            if (suit != s->trump) plain += popcount16(s->h[p][suit]);
        /* After an entry (skip), the partner has one card fewer than it holds now. */
        if (plain - (skip >= 0) < total) return 0;
    }
    for (int suit = 0; suit < 4; suit++)
        if (suit != s->trump) relevant[suit] = lowest[suit];
    return total;
}

/* Tricks the leader's side is sure to cash by leading its own top cards, leaving out the suit
 * `skip` (-1: none), counted until they make `need`; the top cards it counts go into `relevant`
 * (as the lowest of each suit's). */
static int own_quick_tricks(const State *s, int leader, int skip, int need, uint16_t *relevant) {
    int total = 0, trumps_drawn = 1;
    int per_suit[4];
    uint16_t lowest_top[4];
    for (int suit = 0; suit < 4; suit++) {
        unsigned mine = s->h[leader][suit];
        per_suit[suit] = 0;
        lowest_top[suit] = 0;
        if (!mine) continue;
        unsigned others = 0;
        int longest_other = 0;
        for (int p = 0; p < 4; p++) {
            if (p == leader) continue;
            others |= s->h[p][suit];
            int n = (int)((s->lengths >> (4 * (p * 4 + suit))) & 15u);
            if (n > longest_other) longest_other = n;
        }
        /* The leader's top cards: its cards above every other hand's. */
        unsigned above = others ? mine & ~((2u << top_bit(others)) - 1u) : mine;
        int tops = popcount16(above);
        lowest_top[suit] = (uint16_t)(above & -above);
        per_suit[suit] = longest_other <= tops ? popcount16(mine) : tops;
    }
    for (int suit = 0; suit < 4; suit++) relevant[suit] = 0;
    if (skip >= 0) per_suit[skip] = 0, lowest_top[skip] = 0;
    if (s->trump == NO_TRUMP) {
        for (int suit = 0; suit < 4 && total < need; suit++) {
            total += per_suit[suit];
            relevant[suit] = lowest_top[suit];
        }
        return total;
    }
    int trump_tricks = per_suit[s->trump];
    for (int p = 0; p < 4; p++) {
        if (good_for(s, leader, p)) continue;
        if (popcount16(s->h[p][s->trump]) > trump_tricks) trumps_drawn = 0;
    }
    total = trump_tricks;
    relevant[s->trump] = lowest_top[s->trump];
    if (total >= need) return total;
    if (trumps_drawn) {
        for (int suit = 0; suit < 4 && total < need; suit++) {
            if (suit == s->trump) continue;
            total += per_suit[suit];
            relevant[suit] = lowest_top[suit];
        }
        return total;
    }
    return total + safe_side_tricks(s, leader, skip, relevant);
}

/* Quick tricks with an entry: the leader may instead lead a small card of a suit whose top card
 * a partner holds (no opponent able to ruff it), and the partner, on lead after winning it,
 * cashes its own top cards of the other suits. The best of these and the leader's own. */
static int quick_tricks(const State *s, int leader, int need, uint16_t *relevant) {
    int best = own_quick_tricks(s, leader, -1, need, relevant);
    for (int suit = 0; suit < 4 && best < need; suit++) {
        if (suit == s->trump || !s->h[leader][suit]) continue;
        unsigned rem = s->h[0][suit] | s->h[1][suit] | s->h[2][suit] | s->h[3][suit];
        int top = top_bit(rem);
        int partner = -1;
        for (int p = 0; p < 4; p++)
            if ((s->h[p][suit] >> top) & 1u) partner = p;
        if (partner == leader || !good_for(s, leader, partner)) continue;
        int ruffable = 0;
        if (s->trump != NO_TRUMP)
            for (int p = 0; p < 4; p++)
                if (!good_for(s, leader, p) && !s->h[p][suit] && s->h[p][s->trump]) ruffable = 1;
        if (ruffable) continue;
        uint16_t tops[4];
        int n = 1 + own_quick_tricks(s, partner, suit, need - 1, tops);
        if (n > best) {
            best = n;
            memcpy(relevant, tops, sizeof tops);
            relevant[suit] = (uint16_t)(1u << top);
        }
    }
    return best;
}

/* Whether a seat of `team` is sure of `need` tricks with its trumps, whatever anyone does: each of
 * its trumps is played to a different trick, which the team wins unless a higher trump of another
 * side beats it there, and each trump of the other side beats at most one of them. So, going down
 * the trumps, each of the seat's trumps with no trump of the other side above it left unmatched
 * is a sure trick (two of the team's in one trick would be one trick, so this counts one seat).
 * The answer depends on the order of the trumps down to the seat's trump that made `need`, which
 * goes in *lowest: a position whose trumps above it lie the same way counts as many. */
static int sure_trump_tricks(const State *s, int team, int need, uint16_t *lowest) {
    if (s->trump == NO_TRUMP || need <= 0) return 0;
    unsigned theirs = 0;
    for (int p = 0; p < 4; p++)
        if (!on(team, p)) theirs |= s->h[p][s->trump];
    for (int p = 0; p < 4; p++) {
        unsigned mine = s->h[p][s->trump];
        if (!on(team, p) || popcount16(mine) < need) continue;
        unsigned rem = mine | theirs;
        int higher = 0, sure = 0;
        while (rem) {
            int b = top_bit(rem);
            rem &= ~(1u << b);
            if (!((mine >> b) & 1u)) {
                higher++;
            } else if (higher) {
                higher--;
            } else if (++sure == need) {
                *lowest = (uint16_t)(1u << b);
                return 1;
            }
        }
    }
    return 0;
}

/* The tricks `side` (seats that play for their own tricks) is sure of with the other side on
 * lead, from one of its seats, L: its trumps above every trump of the other side (its tops, each
 * a trick whenever it is played), and one more with its highest trump below them, T, when every
 * trump of the other side above T is in the hand of L's right-hand opponent, h of them, and L
 * holds more than h trumps besides its tops and T. Until `side` takes a trick the other side
 * leads, so that opponent plays before L to every trick and the others after L hold no trump
 * above T. Whenever L plays a trump (to a trump lead, or void in the suit led) and that opponent
 * has not played a trump above T to the trick, L plays T, which no one of the other side can
 * beat; otherwise L plays one of its trumps below T. That opponent covers at most h of L's
 * trumps, and all of them are played by the end: `side` takes a trick before L's tops are
 * played, and the tops take theirs. The answer depends on the owners of the trumps down to T
 * (*lowest) and on the lengths. The best of the side's seats; 0 when none has such a T. */
static int positional_trump_tricks(const State *s, int side, int leader, uint16_t *lowest) {
    if (s->trump == NO_TRUMP || on(side, leader)) return 0;
    unsigned theirs = 0;
    for (int p = 0; p < 4; p++)
        if (!on(side, p)) theirs |= s->h[p][s->trump];
    if (!theirs) return 0;
    int best = 0;
    for (int lone = 0; lone < 4; lone++) {
        int right = (lone + 3) & 3;
        unsigned mine = s->h[lone][s->trump];
        if (!on(side, lone) || on(side, right) || !mine) continue;
        /* The tops: L's trumps above the other side's highest. */
        unsigned below = mine & ((1u << top_bit(theirs)) - 1u);
        if (!below) continue;
        int tops = popcount16(mine) - popcount16(below);
        int top = top_bit(below);
        unsigned above = theirs >> (top + 1);
        if (above & ~(s->h[right][s->trump] >> (top + 1))) continue;
        if (popcount16(below) - 1 < popcount16(above)) continue;
        if (tops + 1 > best) {
            best = tops + 1;
            *lowest = (uint16_t)(1u << top);
        }
    }
    return best;
}

static inline int beats(const State *s, int suit, int rank, int win_suit, int win_rank) {
    if (suit == win_suit) return rank > win_rank;
    return suit == s->trump;
}

/* --- move generation ----------------------------------------------------------------------- */

typedef struct {
    int8_t suit, rank;
    int64_t score;
} Move;

/* Each question starts its move ordering afresh (see State). */
static void new_question(State *s) {
    memset(s->history, 0, sizeof s->history);
    memset(s->killer, 0xff, sizeof s->killer);
}

static int opponent_ruffs(const State *s, int seat, int suit) {
    if (s->trump == NO_TRUMP || suit == s->trump) return 0;
    for (int p = 0; p < 4; p++) {
        if (p == seat || good_for(s, seat, p)) continue;
        if (!s->h[p][suit] && s->h[p][s->trump]) return 1;
    }
    return 0;
}

/* Whether a seat still to play to the trick after `seat` (at position `pos`) can take it from
 * `winner`, who holds it with `win_rank` of `win_suit`, against `winner`'s wish. */
static int overtaken(const State *s, int seat, int pos, int lead_suit, int winner, int win_suit,
                     int win_rank) {
    for (int later = pos + 1; later < 4; later++) {
        int p = (seat + later - pos) & 3;
        if (good_for(s, p, winner)) continue;
        unsigned follow = s->h[p][lead_suit];
        if (follow) {
            if (win_suit == lead_suit && (follow >> (win_rank + 1))) return 1;
        } else if (s->trump != NO_TRUMP) {
            unsigned trumps = s->h[p][s->trump];
            if (win_suit == s->trump ? (trumps >> (win_rank + 1)) != 0 : trumps != 0) return 1;
        }
    }
    return 0;
}

static int generate(const State *s, int seat, int pos, int lead_suit, int win_seat, int win_suit,
                    int win_rank, int hint, Move *moves) {
    int n = 0;
    int first_suit = 0, last_suit = 3;
    if (pos > 0 && s->h[seat][lead_suit]) first_suit = last_suit = lead_suit;
    int wants_own = good_for(s, seat, seat);
    for (int suit = first_suit; suit <= last_suit; suit++) {
        unsigned mine = s->h[seat][suit];
        if (!mine) continue;
        unsigned rem = remaining(s, suit);
        unsigned reps = representatives(mine, rem);
        int length = popcount16(mine);
        int ruffed = pos == 0 ? opponent_ruffs(s, seat, suit) : 0;
        int top = top_bit(rem);
        /* Whether a partner holds the suit's top card: a small card led to it is an entry. */
        int partner_top = 0;
        if (pos == 0 && wants_own && !ruffed)
            for (int p = 0; p < 4; p++)
                if (p != seat && good_for(s, seat, p) && ((s->h[p][suit] >> top) & 1u))
                    partner_top = 1;
        while (reps) {
            int r = top_bit(reps);
            reps &= ~(1u << r);
            int score;
            if (pos == 0) {
                if (wants_own) {
                    /* Few classes, so that the history (of this question) orders the leads
                     * within each: it knows the deal better than any fixed rule. */
                    if (ruffed)
                        score = 5;
                    else if (r == top)
                        score = 100;
                    else if (partner_top)
                        score = 90;
                    else
                        score = 20;
                } else {
                    /* Playing for the other side to win: lead under someone who wants it. */
                    int covered = 0;
                    for (int p = 0; p < 4; p++)
                        if (p != seat && (s->h[p][suit] >> (r + 1)) && good_for(s, seat, p)) covered = 1;
                    score = (covered ? 50 : 0) + (12 - r);
                }
            } else {
                int wins = beats(s, suit, r, win_suit, win_rank);
                int winner = wins ? seat : win_seat;
                score = good_for(s, seat, winner) ? 64 : 0;
                if (score && !overtaken(s, seat, pos, lead_suit, winner, wins ? suit : win_suit,
                                        wins ? r : win_rank))
                    score += 32;
                if (wins)
                    score += 20 - r;
                else if (wants_own)
                    score += 20 - r + (suit != lead_suit ? length : 0);
                else
                    score += r;
            }
            if (pos == 0 && s->killer[s->generating_left][seat] == suit * 16 + r) score = 999;
            if (hint >= 0 && suit == (hint >> 4) && r == (hint & 15)) score = 1000;
            moves[n].suit = (int8_t)suit;
            moves[n].rank = (int8_t)r;
            moves[n].score = ((int64_t)score << 32) | s->history[seat][suit][r];
            n++;
        }
    }
    /* Insertion sort, best first: at most 13 moves. */
    for (int i = 1; i < n; i++) {
        Move m = moves[i];
        int j = i - 1;
        while (j >= 0 && moves[j].score < m.score) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = m;
    }
    return n;
}

/* The card of `seat` in `suit` at relative rank `relative` (0 = highest left), as its run's top. */
static int lead_from_hint(const State *s, int seat, int best) {
    if (best == 0xff) return -1;
    int suit = best >> 4, relative = best & 15;
    unsigned rem = remaining(s, suit);
    for (int i = 0; i < relative && rem; i++) rem &= ~(1u << top_bit(rem));
    if (!rem) return -1;
    int r = top_bit(rem);
    unsigned mine = s->h[seat][suit];
    if (!((mine >> r) & 1u)) return -1;
    /* Climb to the top of the run of equivalent cards, the one generate() offers. */
    unsigned all = remaining(s, suit);
    for (;;) {
        unsigned above = all & ~((2u << r) - 1u);
        if (!above) break;
        int next = __builtin_ctz(above);
        if (!((mine >> next) & 1u)) break;
        r = next;
    }
    return suit * 16 + r;
}

static int relative_rank(const State *s, int suit, int r) {
    unsigned rem = remaining(s, suit);
    return popcount16(rem & ~((2u << r) - 1u));
}

/* --- the zero-window search ------------------------------------------------------------------ */

static inline void clear4(uint16_t *r) { r[0] = r[1] = r[2] = r[3] = 0; }
static inline void or4(uint16_t *r, const uint16_t *x) {
    r[0] |= x[0]; r[1] |= x[1]; r[2] |= x[2]; r[3] |= x[3];
}

/* The trick's winning card decided it by rank when another card of its suit is in the trick. */
static inline void add_winner(const State *s, int suit, int rank, uint16_t played_bit,
                              int played_suit, uint16_t *relevant) {
    unsigned same = s->table[suit] | (played_suit == suit ? played_bit : 0u);
    if (same & ~(1u << rank)) relevant[suit] |= (uint16_t)(1u << rank);
}

/* After a card of `suit` failed for its player with `child` as the cards that mattered below it:
 * when the card is below the lowest of them, any lower card of the same suit in the same hand
 * gives a position of the same class (the two differ only in small cards), so fails as well.
 * small[suit] becomes the rank bit under which the player's cards of the suit need no trying
 * (0x2000 when no card of the suit mattered). */
static inline void note_small(const uint16_t *child, int suit, uint16_t bit, uint16_t *small) {
    uint16_t cut = child[suit] ? (uint16_t)(child[suit] & -child[suit]) : (uint16_t)0x2000;
    if (bit < cut && cut > small[suit]) small[suit] = cut;
}

/* A search that tried every card of `seat` only tried the top card of each run of equivalent
 * cards; the runs hold only where their lowest cards are among the cards that matter. Runs
 * wholly below small[suit] need not hold: any card there gives the same result. */
/* The lowest card of each run of two cards or more of `mine` (runs as representatives() sees
 * them) whose top card is not below `small`, as rank bits. */
static inline unsigned run_lows(unsigned mine, unsigned rem, unsigned small) {
    unsigned c = pack13(mine, rem);
    unsigned lows = c & ~(c << 1) & (c >> 1);
    /* Packed, the cards not below `small` are those from position t up. */
    int t = small ? popcount16(rem & (small - 1u)) : 0;
    unsigned under = (1u << t) - 1u;
    unsigned out = lows & ~under;
    /* A run across position t: its lowest card is below t. */
    if (t > 0 && ((c >> t) & 1u) && ((c >> (t - 1)) & 1u)) {
        unsigned gaps = ~c & under;
        out |= gaps ? 2u << top_bit(gaps) : 1u;
    }
    return unpack13(out, rem);
}

static void add_runs(const State *s, int seat, int pos, int lead_suit, const uint16_t *small,
                     uint16_t *relevant) {
    int first = 0, last = 3;
    if (pos > 0 && s->h[seat][lead_suit]) first = last = lead_suit;
    for (int suit = first; suit <= last; suit++) {
        unsigned mine = s->h[seat][suit];
        if (popcount16(mine) < 2) continue;
        relevant[suit] |= (uint16_t)run_lows(mine, remaining(s, suit), small[suit]);
    }
}

static int search(State *s, int leader, int left, int k, uint16_t *relevant);

static int last_trick(State *s, int leader, uint16_t *relevant) {
    int win_seat = leader, win_suit = -1, win_rank = -1;
    uint16_t played[4] = {0, 0, 0, 0};
    for (int pos = 0; pos < 4; pos++) {
        int seat = (leader + pos) & 3;
        int suit = 0;
        while (!s->h[seat][suit]) suit++;
        int r = top_bit(s->h[seat][suit]);
        played[suit] |= (uint16_t)(1u << r);
        if (pos == 0 || beats(s, suit, r, win_suit, win_rank)) {
            win_seat = seat;
            win_suit = suit;
            win_rank = r;
        }
    }
    clear4(relevant);
    if (played[win_suit] & ~(1u << win_rank)) relevant[win_suit] = (uint16_t)(1u << win_rank);
    return win_seat;
}

static int play(State *s, int leader, int pos, int left, int k, int lead_suit, int win_seat,
                int win_suit, int win_rank, int hint, uint16_t *relevant) {
    int seat = (leader + pos) & 3;
    Move moves[13];
    s->generating_left = left;
    int n = generate(s, seat, pos, lead_suit, win_seat, win_suit, win_rank, hint, moves);
    int maximizing = on(s->maximizers, seat);
    uint16_t child[4];
    uint16_t small[4] = {0, 0, 0, 0};
    clear4(relevant);
    for (int i = 0; i < n; i++) {
        int suit = moves[i].suit, r = moves[i].rank;
        uint16_t bit = (uint16_t)(1u << r);
        if (bit < small[suit]) continue;
        int ws = win_seat, wsuit = win_suit, wr = win_rank;
        if (pos == 0 || beats(s, suit, r, win_suit, win_rank)) {
            ws = seat;
            wsuit = suit;
            wr = r;
        }
        int result;
        s->h[seat][suit] ^= bit;
        s->lengths -= 1ull << (4 * (seat * 4 + suit));
        if (pos == 3) {
            uint16_t saved[4];
            memcpy(saved, s->table, sizeof saved);
            memset(s->table, 0, sizeof s->table);
            result = search(s, ws, left - 1, k - on(s->counted, ws), child);
            memcpy(s->table, saved, sizeof saved);
            add_winner(s, wsuit, wr, bit, suit, child);
        } else {
            s->table[suit] |= bit;
            result = play(s, leader, pos + 1, left, k, pos == 0 ? suit : lead_suit, ws, wsuit, wr,
                          -1, child);
            s->table[suit] ^= bit;
        }
        s->h[seat][suit] ^= bit;
        s->lengths += 1ull << (4 * (seat * 4 + suit));
        if (result == maximizing) {
            if (pos == 0) {
                s->best_lead = suit * 16 + relative_rank(s, suit, r);
                s->killer[left][seat] = suit * 16 + r;
            }
            if (i > 0 && s->history[seat][suit][r] < 0x40000000u)
                s->history[seat][suit][r] += (uint32_t)(left * left);
            memcpy(relevant, child, sizeof child);
            return result;
        }
        or4(relevant, child);
        note_small(child, suit, bit, small);
    }
    add_runs(s, seat, pos, lead_suit, small, relevant);
    return !maximizing;
}

static int search(State *s, int leader, int left, int k, uint16_t *relevant) {
    clear4(relevant);
    if (k <= 0) return 1;
    if (k > left) return 0;
    s->nodes++;
    if (left == 1) return on(s->counted, last_trick(s, leader, relevant));
    uint16_t lowest = 0;
    if (sure_trump_tricks(s, s->counted, k, &lowest)) {
        relevant[s->trump] = lowest;
        return 1;
    }
    if (sure_trump_tricks(s, 15 ^ s->counted, left - k + 1, &lowest)) {
        relevant[s->trump] = lowest;
        return 0;
    }
    /* Where each side plays for its own tricks, against the other side's lead. */
    if (s->counted == s->maximizers) {
        if (positional_trump_tricks(s, s->counted, leader, &lowest) >= k) {
            relevant[s->trump] = lowest;
            return 1;
        }
        if (positional_trump_tricks(s, 15 ^ s->counted, leader, &lowest) >= left - k + 1) {
            relevant[s->trump] = lowest;
            return 0;
        }
    }
    if (good_for(s, leader, leader)) {
        uint16_t tops[4];
        int need = on(s->counted, leader) ? k : left - k + 1;
        if (quick_tricks(s, leader, need, tops) >= need) {
            memcpy(relevant, tops, sizeof tops);
            return on(s->counted, leader);
        }
    }
    Summary m;
    summarize(s, leader, s->context, &m);
    int hint_stored = 0xff;
    const Entry *e = tt_lookup(s, &m, leader, s->context, k, &hint_stored);
    if (e) {
        for (int suit = 0; suit < 4; suit++) relevant[suit] = cut_of(s, suit, e->depth[suit]);
        return e->kind == LOWER;
    }
    int hint = lead_from_hint(s, leader, hint_stored);
    s->best_lead = 0xff;
    int result = play(s, leader, 0, left, k, -1, leader, -1, -1, hint, relevant);
    /* The lead that refuted the other side, whichever side leads (only a cut-off sets it). */
    int best = result == on(s->maximizers, leader) ? s->best_lead : 0xff;
    tt_store(s, &m, leader, s->context, result ? LOWER : UPPER, result ? k : k - 1,
             relevant, best);
    return result;
}

/* --- exactly one trick (piccolo) ----------------------------------------------------------- */

/* Whether the declarer can make sure of taking no trick of the `left` still to play. */
static int takes_none(State *s, int leader, int left, uint16_t *relevant) {
    /* The counted seat is the declarer, the maximizers the three who try to give it a trick. */
    return !search(s, leader, left, 1, relevant);
}

/* Whether the declarer, trying, can take at least one trick against the three. */
static int one_trick_possible(State *s, int leader, int left, uint16_t *relevant) {
    int maximizers = s->maximizers;
    uint16_t context = s->context;
    s->maximizers = s->counted;
    s->context = (uint16_t)(1 + (s->trump | s->counted << 3 | s->counted << 7));
    int result = search(s, leader, left, 1, relevant);
    s->maximizers = maximizers;
    s->context = context;
    return result;
}

static int exactly_one(State *s, int leader, int left, uint16_t *relevant);

static int one_play(State *s, int leader, int pos, int left, int lead_suit, int win_seat,
                    int win_suit, int win_rank, uint16_t *relevant) {
    int seat = (leader + pos) & 3;
    Move moves[13];
    s->generating_left = left;
    int n = generate(s, seat, pos, lead_suit, win_seat, win_suit, win_rank, -1, moves);
    int declarer = seat == s->declarer;
    uint16_t child[4];
    uint16_t small[4] = {0, 0, 0, 0};
    clear4(relevant);
    for (int i = 0; i < n; i++) {
        int suit = moves[i].suit, r = moves[i].rank;
        uint16_t bit = (uint16_t)(1u << r);
        if (bit < small[suit]) continue;
        int ws = win_seat, wsuit = win_suit, wr = win_rank;
        if (pos == 0 || beats(s, suit, r, win_suit, win_rank)) {
            ws = seat;
            wsuit = suit;
            wr = r;
        }
        int result;
        s->h[seat][suit] ^= bit;
        s->lengths -= 1ull << (4 * (seat * 4 + suit));
        if (pos == 3) {
            uint16_t saved[4];
            memcpy(saved, s->table, sizeof saved);
            memset(s->table, 0, sizeof s->table);
            if (ws == s->declarer) {
                if (left - 1 == 0) {
                    result = 1;
                    clear4(child);
                } else {
                    result = takes_none(s, ws, left - 1, child);
                }
            } else {
                result = exactly_one(s, ws, left - 1, child);
            }
            memcpy(s->table, saved, sizeof saved);
            add_winner(s, wsuit, wr, bit, suit, child);
        } else {
            s->table[suit] |= bit;
            result = one_play(s, leader, pos + 1, left, pos == 0 ? suit : lead_suit, ws, wsuit, wr,
                              child);
            s->table[suit] ^= bit;
        }
        s->h[seat][suit] ^= bit;
        s->lengths += 1ull << (4 * (seat * 4 + suit));
        if (result == declarer) {
            memcpy(relevant, child, sizeof child);
            return result;
        }
        or4(relevant, child);
        note_small(child, suit, bit, small);
    }
    add_runs(s, seat, pos, lead_suit, small, relevant);
    return !declarer;
}

/* Whether the declarer can make sure of taking exactly one of the `left` tricks still to play. */
static int exactly_one(State *s, int leader, int left, uint16_t *relevant) {
    clear4(relevant);
    if (left == 0) return 0;
    s->nodes++;
    if (left == 1) return last_trick(s, leader, relevant) == s->declarer;
    /* Cheap refutations first: the three can hold the declarer to no trick, or force two on it.
     * Both are ordinary searches whose results stay in the table. */
    if (!one_trick_possible(s, leader, left, relevant)) return 0;
    if (search(s, leader, left, 2, relevant)) return 0;
    uint16_t context = (uint16_t)(s->context | CONTEXT_EXACTLY_ONE);
    Summary m;
    summarize(s, leader, context, &m);
    int unused = 0xff;
    const Entry *e = tt_lookup(s, &m, leader, context, 1, &unused);
    if (e) {
        for (int suit = 0; suit < 4; suit++) relevant[suit] = cut_of(s, suit, e->depth[suit]);
        return e->kind == LOWER;
    }
    int result = one_play(s, leader, 0, left, -1, leader, -1, -1, relevant);
    tt_store(s, &m, leader, context, result ? LOWER : UPPER, result ? 1 : 0, relevant, 0xff);
    return result;
}

/* --- Python interface ---------------------------------------------------------------------- */

static void free_memory(void *memory) {
    Memory *mem = (Memory *)memory;
    free(mem->tt);
    free(mem->heads);
    free(mem);
}

/* The calling thread's table, allocated on its first search; NULL with MemoryError set. */
static Memory *thread_memory(void) {
    Memory *mem = (Memory *)pthread_getspecific(memory_key);
    if (mem) return mem;
    mem = (Memory *)calloc(1, sizeof(Memory));
    if (!mem) {
        PyErr_NoMemory();
        return NULL;
    }
    mem->filled[0] = mem->filled[1] = 1;
    mem->tt = (Entry *)malloc(2 * (size_t)POOL * sizeof(Entry));
    mem->heads = (uint32_t *)malloc(2 * (size_t)HEADS * sizeof(uint32_t));
    if (!mem->tt || !mem->heads) {
        free(mem->tt);
        free(mem->heads);
        free(mem);
        PyErr_NoMemory();
        return NULL;
    }
    tt_reset(mem);
    if (pthread_setspecific(memory_key, mem)) {
        free_memory(mem);
        PyErr_NoMemory();
        return NULL;
    }
    return mem;
}

/* Fill `s` from Python arguments; -1 with an exception set when they do not make a position. */
static int load(State *s, PyObject *hands, int trump, int leader, int counted, int maximizers,
                int *left) {
    memset(s, 0, sizeof *s);
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != 4) {
        PyErr_SetString(PyExc_ValueError, "hands must be a tuple of four card masks");
        return -1;
    }
    uint64_t seen = 0;
    int size = -1;
    for (int p = 0; p < 4; p++) {
        unsigned long long mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, p));
        if (PyErr_Occurred()) return -1;
        if (mask >> 52) {
            PyErr_SetString(PyExc_ValueError, "a card mask has bits above the 52 cards");
            return -1;
        }
        if (seen & mask) {
            PyErr_SetString(PyExc_ValueError, "two hands hold the same card");
            return -1;
        }
        seen |= mask;
        int count = __builtin_popcountll(mask);
        if (size >= 0 && count != size) {
            PyErr_SetString(PyExc_ValueError, "the four hands must hold as many cards each");
            return -1;
        }
        size = count;
        for (int suit = 0; suit < 4; suit++) {
            unsigned pattern = (unsigned)(mask >> (13 * suit)) & 0x1fffu;
            uint16_t h = 0;
            for (int bit = 0; bit < 13; bit++)
                if ((pattern >> bit) & 1u) h |= (uint16_t)(1u << (12 - bit));
            s->h[p][suit] = h;
            s->lengths |= (uint64_t)popcount16(h) << (4 * (p * 4 + suit));
        }
    }
    if (trump < 0 || trump > NO_TRUMP || leader < 0 || leader > 3 || counted < 0 || counted > 15 ||
        maximizers < 0 || maximizers > 15) {
        PyErr_SetString(PyExc_ValueError, "trump, leader or a seat mask is out of range");
        return -1;
    }
    s->trump = trump;
    s->counted = counted;
    s->maximizers = maximizers;
    s->context = (uint16_t)(1 + (trump | counted << 3 | maximizers << 7));
    *left = size;
    s->mem = thread_memory();
    if (!s->mem) return -1;
    new_question(s);
    return 0;
}

static void count_nodes(const State *s) {
    __atomic_fetch_add(&total_nodes, s->nodes, __ATOMIC_RELAXED);
}

static PyObject *py_at_least(PyObject *self, PyObject *args) {
    PyObject *hands;
    int trump, leader, counted, maximizers, k, left;
    State s;
    if (!PyArg_ParseTuple(args, "O!iiiii", &PyTuple_Type, &hands, &trump, &leader, &counted,
                          &maximizers, &k))
        return NULL;
    if (load(&s, hands, trump, leader, counted, maximizers, &left) < 0) return NULL;
    uint16_t relevant[4];
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = search(&s, leader, left, k, relevant);
    Py_END_ALLOW_THREADS
    count_nodes(&s);
    return PyBool_FromLong(result);
}

static PyObject *py_tricks(PyObject *self, PyObject *args) {
    PyObject *hands;
    int trump, leader, counted, maximizers, guess, left, lower = 0, upper = 13;
    State s;
    if (!PyArg_ParseTuple(args, "O!iiiii|ii", &PyTuple_Type, &hands, &trump, &leader, &counted,
                          &maximizers, &guess, &lower, &upper))
        return NULL;
    if (load(&s, hands, trump, leader, counted, maximizers, &left) < 0) return NULL;
    /* Bounds known beforehand (from other answers of the same deal) spare the searches that
     * would only prove them. */
    int lb = lower > 0 ? lower : 0, ub = upper < left ? upper : left;
    if (lb > ub) {
        PyErr_SetString(PyExc_ValueError, "the lower bound is above the upper bound");
        return NULL;
    }
    uint16_t relevant[4];
    if (guess < 0 || guess > left) guess = (left + 1) / 2;
    /* Zero-window tests stepping from the guess; each leaves bounds in the table. */
    int target = guess;
    Py_BEGIN_ALLOW_THREADS
    while (lb < ub) {
        if (target <= lb) target = lb + 1;
        if (target > ub) target = ub;
        if (search(&s, leader, left, target, relevant)) {
            lb = target;
            target++;
        } else {
            ub = target - 1;
            target--;
        }
    }
    Py_END_ALLOW_THREADS
    count_nodes(&s);
    return PyLong_FromLong(lb);
}

static PyObject *py_exactly_one(PyObject *self, PyObject *args) {
    PyObject *hands;
    int declarer, leader, left;
    State s;
    if (!PyArg_ParseTuple(args, "O!ii", &PyTuple_Type, &hands, &declarer, &leader)) return NULL;
    if (declarer < 0 || declarer > 3) {
        PyErr_SetString(PyExc_ValueError, "the declarer is a seat 0-3");
        return NULL;
    }
    if (load(&s, hands, NO_TRUMP, leader, 1 << declarer, 15 ^ (1 << declarer), &left) < 0)
        return NULL;
    s.declarer = declarer;
    uint16_t relevant[4];
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = exactly_one(&s, leader, left, relevant);
    Py_END_ALLOW_THREADS
    count_nodes(&s);
    return PyBool_FromLong(result);
}

static PyObject *py_nodes(PyObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(__atomic_load_n(&total_nodes, __ATOMIC_RELAXED));
}

static PyObject *py_clear(PyObject *self, PyObject *unused) {
    Memory *mem = (Memory *)pthread_getspecific(memory_key);
    if (mem) tt_reset(mem);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"at_least", py_at_least, METH_VARARGS,
     "at_least(hands, trump, leader, counted, maximizers, k) -> bool"},
    {"tricks", py_tricks, METH_VARARGS,
     "tricks(hands, trump, leader, counted, maximizers, guess, lower=0, upper=13) -> int"},
    {"exactly_one", py_exactly_one, METH_VARARGS, "exactly_one(hands, declarer, leader) -> bool"},
    {"nodes", py_nodes, METH_NOARGS, "nodes() -> int: positions searched since import"},
    {"clear", py_clear, METH_NOARGS, "clear() -> None: empty the calling thread's transposition table"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver", "The compiled double-dummy search.", -1, methods,
};

PyMODINIT_FUNC PyInit__solver(void) {
    fill_tables();
    if (pthread_key_create(&memory_key, free_memory)) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
