# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""The compiled double-dummy search (see docs/solver.md); :mod:`rebelote.solver.reference` is
the plain version it is held equal to.

Alpha-beta (fail-soft) on the points that one team (``me``, the team to move at the root)
wins from the current position on, the opponents minimising it. Positions at the start of a
trick go through a transposition table: within one solve a position there is fully known by
the cards still out (each card keeps its owner), the leader and whether ``me`` has won every
trick so far (a capot is still possible), so the key is exact. The table is stamped by epoch
(one per solve) instead of being cleared. Moves: for a lead the killer first, then a static
order; of several equivalent cards (same hand, same suit, same points, nothing still in play
between them in strength) only one is searched.
"""

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport free
from posix.stdlib cimport posix_memalign
from libc.string cimport memset

from rebelote.fast._rules cimport (
    ALL_TRUMP, CAPOT_EXTRA, DIX_DE_DER, NO_TRUMP, __builtin_ctz, __builtin_popcount, legal_cards,
    suit_mask,
)

cdef enum:
    INF = 10000
    # The transposition table: 2^TT_BITS entries of one 64-bit word, in buckets of 2^WAY_BITS
    # (32 bytes, in one cache line), 512 KB in all. A word holds the check (the position's key
    # above the bucket's BUCKET_BITS bits, which the bucket's index gives back, and the
    # epoch), the lower and upper bounds (9 bits each: values are at most 348, all-trump at
    # the trump scale) and the cards left / 4 (which entry a full bucket keeps). No move:
    # the killers and the static order do better without it.
    TT_BITS = 16
    WAY_BITS = 2
    WAYS = 1 << WAY_BITS
    BUCKET_BITS = TT_BITS - WAY_BITS
    BUCKET_MASK = (1 << BUCKET_BITS) - 1
    KEY_HI_BITS = 35 - BUCKET_BITS  # the key is 35 bits: the cards, the leader, the flag
    EPOCH_BITS = 64 - 22 - KEY_HI_BITS
    CHECK_BITS = KEY_HI_BITS + EPOCH_BITS
    LO_SHIFT = CHECK_BITS
    HI_SHIFT = CHECK_BITS + 9
    DEPTH_SHIFT = CHECK_BITS + 18
    NO_HI = 511

cdef extern from *:
    """
    #define REBELOTE_MASK(bits) ((1ULL << (bits)) - 1)
    """
    uint64_t bits_mask "REBELOTE_MASK"(int bits) noexcept nogil

cdef struct Ctx:
    uint32_t hands[4]
    int values[32]
    int power[32]
    uint32_t above[32]     # the cards of the same suit that beat a card
    uint32_t beaters[32]   # the cards that beat a card winning a trick
    int trump
    int ot                 # overtrump_partner
    int mu                 # must_undertrump
    int step
    int me
    int flag               # me has won every trick so far
    uint32_t gone          # the cards of the tricks over
    int tcards[4]
    int left               # cards still in the hands
    int tn
    int tleader
    int twin
    uint64_t* tt           # the transposition table, 2^TT_BITS words
    uint64_t epoch         # the solve's number, in every entry it writes
    int64_t nodes
    int suit_points[4][256]
    int killer[36]         # a lead that refuted its position, by tricks left and leader
    int eq_below[32]       # a lower card of the same suit has the same points

cdef inline int popcount(uint32_t x) noexcept nogil:
    return __builtin_popcount(x)


cdef extern from *:
    void __builtin_prefetch(const void*) nogil


cdef inline uint64_t tt_check(uint32_t rem, int leader, int flag, uint64_t epoch) noexcept nogil:
    """What an entry keeps of a position's key: its cards above the low BUCKET_BITS ones, the
    leader, the capot flag and the epoch (the bucket gives the low cards back)."""
    return ((<uint64_t> rem) >> BUCKET_BITS) | (<uint64_t> leader << (32 - BUCKET_BITS)) \
        | (<uint64_t> flag << (34 - BUCKET_BITS)) | (epoch << KEY_HI_BITS)


cdef inline uint64_t* tt_bucket(Ctx* c, uint32_t rem, uint64_t check) noexcept nogil:
    """The bucket of a position: its low cards, mixed with a hash of the rest of its check (the
    key is exact: the check and the bucket's index give every bit of it back)."""
    return &c.tt[((rem ^ <uint32_t> ((check * 0x9E3779B97F4A7C15ULL) >> 40)) & BUCKET_MASK)
                 << WAY_BITS]


cdef inline uint32_t legal(Ctx* c, uint32_t hand) noexcept nogil:
    return legal_cards(hand, c.tcards, c.tn, c.twin, c.trump, c.ot, c.mu, c.above)


cdef inline int remaining_points(Ctx* c, uint32_t rem) noexcept nogil:
    return (c.suit_points[0][rem & 0xFF] + c.suit_points[1][(rem >> 8) & 0xFF]
            + c.suit_points[2][(rem >> 16) & 0xFF] + c.suit_points[3][rem >> 24])


cdef inline int redundant(Ctx* c, int card, uint32_t hand) noexcept nogil:
    """Whether ``card`` has an equivalent card just below it in the same hand."""
    return equivalent_below(c, card, hand) >= 0


cdef inline int equivalent_below(Ctx* c, int card, uint32_t hand) noexcept nogil:
    """The card of ``hand`` just below ``card`` in strength among the cards still in play,
    when it has the same points (the two give the same value), else -1."""
    if not c.eq_below[card]:
        return -1
    cdef uint32_t live = ~c.gone & suit_mask(card >> 3)
    cdef int p = c.power[card]
    cdef int best = -1
    cdef int bp = -1
    cdef uint32_t m = live & ~(c.above[card] | (1u << card))  # live cards of the suit below
    cdef int x
    while m:
        x = __builtin_ctz(m)
        m &= m - 1
        if c.power[x] > bp:
            bp = c.power[x]
            best = x
    if best < 0 or not (hand >> best) & 1 or c.values[best] != c.values[card]:
        return -1
    return best


cdef int order_moves(Ctx* c, int seat, uint32_t moves, int* out) noexcept nogil:
    """The cards of ``moves`` in search order; returns how many."""
    cdef int n = 0
    cdef int scores[8]
    cdef int card, s, i, j, tmp
    cdef int tn = c.tn
    cdef int winning = c.tcards[c.twin] if tn else 0
    cdef int win_seat = (c.tleader + c.step * c.twin) & 3
    cdef int partner_wins = tn > 0 and (win_seat & 1) == (seat & 1)
    cdef uint32_t m = moves
    cdef uint32_t hand = c.hands[seat]
    if not (moves & (moves - 1)):  # one card: nothing to order
        out[0] = __builtin_ctz(moves)
        return 1
    cdef int killer = c.killer[(c.left >> 2) * 4 + seat] if tn == 0 else -1
    # no opponent still to play on this trick holds a card that beats the winning one
    cdef int safe = partner_wins and (tn == 3 or not (
        c.hands[(seat + c.step) & 3] & c.beaters[winning]))
    while m:
        card = __builtin_ctz(m)
        m &= m - 1
        if redundant(c, card, hand):
            continue
        if tn == 0:
            # lead: the master of a suit first, else the cheapest card
            if not (c.above[card] & ~c.gone & ~hand):
                s = 1000 + c.values[card] * 4 + c.power[card]
            else:
                s = -c.values[card] * 4 - c.power[card]
        elif partner_wins and safe:
            # the partner's trick that no later opponent can take: load points on it
            s = 200 + c.values[card] * 4 - c.power[card]
        elif (c.beaters[winning] >> card) & 1:
            s = 500 + c.values[card] * 2 - c.power[card]
        elif partner_wins:
            s = 200 + c.values[card] * 4 - c.power[card]
        else:
            s = -c.values[card] * 4 - c.power[card]
        if card == killer:
            s += 5000
        # insertion sort, highest score first
        i = n
        while i > 0 and scores[i - 1] < s:
            scores[i] = scores[i - 1]
            out[i] = out[i - 1]
            i -= 1
        scores[i] = s
        out[i] = card
        n += 1
    return n


cdef int finish_trick(Ctx* c, int alpha, int beta) noexcept nogil:
    """The fourth card is on the table: the trick's points to its winner, then the rest."""
    cdef int winner = (c.tleader + c.step * c.twin) & 3
    cdef int pts = (c.values[c.tcards[0]] + c.values[c.tcards[1]] + c.values[c.tcards[2]]
                    + c.values[c.tcards[3]])
    cdef int won = (winner & 1) == c.me
    cdef int newflag = c.flag and won
    if not c.left:
        pts += DIX_DE_DER
        if newflag:
            pts += CAPOT_EXTRA
        return pts if won else 0
    cdef int gained = pts if won else 0
    cdef int t0 = c.tcards[0]
    cdef int t1 = c.tcards[1]
    cdef int t2 = c.tcards[2]
    cdef int t3 = c.tcards[3]
    cdef int oldleader = c.tleader
    cdef int oldwin = c.twin
    cdef int oldflag = c.flag
    cdef uint32_t oldgone = c.gone
    c.gone = oldgone | (1u << t0) | (1u << t1) | (1u << t2) | (1u << t3)
    c.tleader = winner
    c.tn = 0
    c.twin = 0
    c.flag = newflag
    cdef int v = gained + search(c, alpha - gained, beta - gained)
    c.flag = oldflag
    c.twin = oldwin
    c.tn = 3
    c.tleader = oldleader
    c.gone = oldgone
    c.tcards[0] = t0
    c.tcards[1] = t1
    c.tcards[2] = t2
    c.tcards[3] = t3
    return v


cdef int last_trick(Ctx* c) noexcept nogil:
    """One card a hand, at the start of the last trick: every card is forced."""
    cdef int seat = c.tleader
    cdef int i, card, win = 0
    cdef int first = __builtin_ctz(c.hands[seat])
    cdef int best = first
    cdef int pts = c.values[first]
    cdef int winseat = seat
    for i in range(1, 4):
        seat = (seat + c.step) & 3
        card = __builtin_ctz(c.hands[seat])
        pts += c.values[card]
        if (c.beaters[best] >> card) & 1:
            best = card
            winseat = seat
    pts += DIX_DE_DER
    if (winseat & 1) != c.me:
        return 0
    if c.flag:
        pts += CAPOT_EXTRA
    return pts


cdef inline int child(Ctx* c, int tn, int alpha, int beta) noexcept nogil:
    cdef int v
    if tn == 3:
        return finish_trick(c, alpha, beta)
    c.tn = tn + 1
    v = search(c, alpha, beta)
    c.tn = tn
    return v


cdef inline int leader_claims(Ctx* c, uint32_t rem) noexcept nogil:
    """Whether the leader takes every trick left, leading his cards one after the other: each
    is the master of its suit (no card still out that beats it is in another hand) and no
    opponent holds a trump to ruff with."""
    cdef int seat = c.tleader
    cdef uint32_t hand = c.hands[seat]
    cdef uint32_t others = rem & ~hand
    cdef uint32_t m = hand
    cdef int x
    if c.trump < 4 and (c.hands[(seat + 1) & 3] | c.hands[(seat + 3) & 3]) & suit_mask(c.trump):
        return 0
    while m:
        x = __builtin_ctz(m)
        m &= m - 1
        if c.above[x] & others:
            return 0
    return 1


cdef int two_tricks(Ctx* c, int tn, int alpha, int beta) noexcept nogil:
    """Two tricks left (two cards a hand at the start of the first): the points ``me`` wins
    from here, fail-soft, by a plain alpha-beta in card order (the last trick is forced):
    ordering the moves costs more than it saves on trees this small."""
    c.nodes += 1
    cdef int seat = (c.tleader + c.step * tn) & 3
    cdef uint32_t hand = c.hands[seat]
    cdef uint32_t m = legal(c, hand)
    cdef int maximizing = (seat & 1) == c.me
    cdef int best = -INF if maximizing else INF
    cdef int card, v, winner, won, oldleader, oldflag
    cdef int oldwin = c.twin
    while m:
        card = __builtin_ctz(m)
        m &= m - 1
        c.hands[seat] = hand & ~(1u << card)
        c.tcards[tn] = card
        if tn == 0:
            c.twin = 0
        elif (c.beaters[c.tcards[oldwin]] >> card) & 1:
            c.twin = tn
        if tn == 3:
            winner = (c.tleader + c.step * c.twin) & 3
            won = (winner & 1) == c.me
            oldleader = c.tleader
            oldflag = c.flag
            c.tleader = winner
            c.flag = oldflag and won
            v = last_trick(c)
            if won:
                v += (c.values[c.tcards[0]] + c.values[c.tcards[1]] + c.values[c.tcards[2]]
                      + c.values[card])
            c.flag = oldflag
            c.tleader = oldleader
        else:
            c.tn = tn + 1
            v = two_tricks(c, tn + 1, alpha, beta)
            c.tn = tn
        c.twin = oldwin
        c.hands[seat] = hand
        if maximizing:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        else:
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
    return best


cdef int search(Ctx* c, int alpha, int beta) noexcept nogil:
    """The points ``me`` wins from here on (the cards on the table included), fail-soft."""
    c.nodes += 1
    cdef int tn = c.tn
    cdef int seat = (c.tleader + c.step * tn) & 3
    cdef uint32_t hand = c.hands[seat]
    cdef uint32_t rem = 0
    cdef uint64_t check = 0
    cdef uint64_t word = 0
    cdef uint64_t* bucket = NULL
    cdef uint64_t cmask = bits_mask(CHECK_BITS)
    cdef int i, card, v, w
    cdef int elo = 0
    cdef int ehi = NO_HI
    cdef int alpha0 = alpha
    cdef int beta0 = beta
    cdef int hi
    if tn == 0:
        rem = c.hands[0] | c.hands[1] | c.hands[2] | c.hands[3]
        if c.left == 4:
            return last_trick(c)
        hi = remaining_points(c, rem) + DIX_DE_DER + (CAPOT_EXTRA if c.flag else 0)
        if hi <= alpha:
            return hi
        if beta <= 0:
            return 0
        check = tt_check(rem, c.tleader, c.flag, c.epoch)
        bucket = tt_bucket(c, rem, check)
        for i in range(WAYS):
            word = bucket[i]
            if (word & cmask) == check:
                break
        if (word & cmask) == check:
            elo = (word >> LO_SHIFT) & 511
            ehi = (word >> HI_SHIFT) & 511
            if elo >= beta:
                return elo
            if ehi <= alpha:
                return ehi
            if elo == ehi:
                return elo
            if elo > alpha:
                alpha = elo
            if ehi < beta:
                beta = ehi
        if leader_claims(c, rem):  # every point left (and the capot, if still open) or none
            return hi if (c.tleader & 1) == c.me else 0
        if c.left == 8:
            v = two_tricks(c, 0, alpha, beta)
            tt_store(c, bucket, check, v, alpha0, beta0)
            return v
    cdef int moves[8]
    cdef int n = order_moves(c, seat, legal(c, hand), moves)
    cdef int maximizing = (seat & 1) == c.me
    cdef int best = -INF if maximizing else INF
    cdef int best_card = moves[0]
    cdef int oldwin = c.twin
    cdef uint64_t k2
    cdef uint32_t r2
    if tn == 3 and n > 1 and c.left > 5:
        # the next trick's table entries, fetched while the first ones are searched
        rem = c.hands[0] | c.hands[1] | c.hands[2] | c.hands[3]
        for i in range(n):
            card = moves[i]
            w = 3 if (c.beaters[c.tcards[oldwin]] >> card) & 1 else oldwin
            w = (c.tleader + c.step * w) & 3
            r2 = rem & ~(1u << card)
            k2 = tt_check(r2, w, c.flag and (w & 1) == c.me, c.epoch)
            __builtin_prefetch(tt_bucket(c, r2, k2))
    for i in range(n):
        card = moves[i]
        c.hands[seat] = hand & ~(1u << card)
        c.left -= 1
        c.tcards[tn] = card
        if tn == 0:
            c.twin = 0
        elif (c.beaters[c.tcards[oldwin]] >> card) & 1:
            c.twin = tn
        if i == 0 or beta - alpha <= 1:
            v = child(c, tn, alpha, beta)
        elif maximizing:
            # principal variation search: a null window to show the move is no better, the
            # full search only when it is
            v = child(c, tn, alpha, alpha + 1)
            if alpha < v < beta:
                v = child(c, tn, v - 1, beta)
        else:
            v = child(c, tn, beta - 1, beta)
            if alpha < v < beta:
                v = child(c, tn, alpha, v + 1)
        c.twin = oldwin
        c.left += 1
        c.hands[seat] = hand
        if maximizing:
            if v > best:
                best = v
                best_card = card
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        else:
            if v < best:
                best = v
                best_card = card
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
    if tn == 0 and (
            (maximizing and best >= beta) or (not maximizing and best <= alpha)):
        c.killer[(c.left >> 2) * 4 + seat] = best_card
    if tn == 0:
        tt_store(c, bucket, check, best, alpha0, beta0)
    return best


cdef inline void tt_store(Ctx* c, uint64_t* bucket, uint64_t check, int best, int alpha0,
                          int beta0) noexcept nogil:
    """The search's result in the position's entry (merged with the bounds it had); a new
    entry takes, in its bucket, an entry of an older solve, else the entry of the fewest
    cards."""
    cdef uint64_t cmask = bits_mask(CHECK_BITS)
    cdef uint64_t emask = bits_mask(EPOCH_BITS)
    cdef uint64_t epoch = c.epoch
    cdef uint64_t word
    cdef int i, d
    cdef int slot = -1
    cdef int low = 100
    cdef int elo = 0
    cdef int ehi = NO_HI
    for i in range(WAYS):
        word = bucket[i]
        if (word & cmask) == check:
            elo = (word >> LO_SHIFT) & 511
            ehi = (word >> HI_SHIFT) & 511
            slot = i
            break
        if ((word >> KEY_HI_BITS) & emask) != epoch:
            d = -1
        else:
            d = <int> (word >> DEPTH_SHIFT)
        if d < low:
            low = d
            slot = i
    if best <= alpha0:
        if best < ehi:
            ehi = best
    elif best >= beta0:
        if best > elo:
            elo = best
    else:
        elo = best
        ehi = best
    bucket[slot] = check | (<uint64_t> elo << LO_SHIFT) | (<uint64_t> ehi << HI_SHIFT) \
        | (<uint64_t> (c.left >> 2) << DEPTH_SHIFT)


cdef void setup(Ctx* c, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int leader,
                list trick, int flag, int me, int step, int ot, int mu) except *:
    cdef int i
    c.hands[0] = h0
    c.hands[1] = h1
    c.hands[2] = h2
    c.hands[3] = h3
    c.ot = ot
    c.mu = mu
    c.step = step
    c.me = me
    c.flag = flag
    for i in range(36):
        c.killer[i] = -1
    c.tn = len(trick)
    c.tleader = leader
    c.twin = 0
    cdef uint32_t out = h0 | h1 | h2 | h3
    for i in range(c.tn):
        c.tcards[i] = trick[i]
        out |= 1u << c.tcards[i]
        if i and (c.beaters[c.tcards[c.twin]] >> c.tcards[i]) & 1:
            c.twin = i
    c.gone = ~out
    c.left = popcount(h0 | h1 | h2 | h3)
    c.epoch += 1
    if c.epoch > bits_mask(EPOCH_BITS):  # the epochs wrapped: the table is emptied
        memset(c.tt, 0, (1 << TT_BITS) * sizeof(uint64_t))
        c.epoch = 1
    c.nodes = 0


cdef void setup_tables(Ctx* c, int trump, values, power, above) except *:
    """The card tables of one trump mode and what the search derives from them."""
    cdef int i, s, b, total
    if sum(values) + DIX_DE_DER + CAPOT_EXTRA >= NO_HI:
        raise ValueError(f"card values adding up to {sum(values)}: at most 400")
    c.trump = trump
    for i in range(32):
        c.values[i] = values[i]
        c.power[i] = power[i]
        c.above[i] = above[i]
    for i in range(32):
        c.eq_below[i] = 0
        for b in range(32):
            if (b >> 3) == (i >> 3) and c.power[b] < c.power[i] and c.values[b] == c.values[i]:
                c.eq_below[i] = 1
        c.beaters[i] = c.above[i]
        if trump < 4 and (i >> 3) != trump:
            c.beaters[i] |= suit_mask(trump)
    for s in range(4):
        for b in range(256):
            total = 0
            for i in range(8):
                if (b >> i) & 1:
                    total += c.values[s * 8 + i]
            c.suit_points[s][b] = total


cdef int root_value(Ctx* c, int tn, int guess) noexcept nogil:
    """The exact value of the root card on the table: a narrow window around ``guess``
    (the previous card's value) first, widened on the side it fails."""
    if guess < 0:
        return child(c, tn, -1, INF)
    cdef int v = child(c, tn, guess - 1, guess + 1)
    if v <= guess - 1:
        return child(c, tn, -1, v + 1)
    if v >= guess + 1:
        return child(c, tn, v - 1, INF)
    return v


cdef class Solver:
    """One search context and its transposition table (512 KB): a solver answers one solve at
    a time, and searches with the interpreter's lock released, so that the solvers of other
    threads run at the same time (:mod:`rebelote.solver` keeps one a thread)."""

    cdef Ctx c
    cdef object tables_of  # the (values, power, above) tuples the context's tables come from

    def __cinit__(self):
        if posix_memalign(<void**> &self.c.tt, 64, (1 << TT_BITS) * sizeof(uint64_t)):
            raise MemoryError("the solver's transposition table")
        memset(self.c.tt, 0, (1 << TT_BITS) * sizeof(uint64_t))
        self.c.epoch = 0
        self.c.trump = -1
        self.tables_of = None

    def __dealloc__(self):
        free(self.c.tt)

    cdef Ctx* prepare(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int trump,
                      int leader, list trick, int flag, int step, int ot, int mu, values,
                      power, above) except NULL:
        cdef Ctx* c = &self.c
        cdef int mover = (leader + step * len(trick)) & 3
        # The tables derived from the card tables (the same tuples from one solve to the
        # next: the rules cache them) are kept from the previous solve; tuples are immutable,
        # so the same objects are the same tables.
        t = self.tables_of
        if not (t is not None and t[0] is values and t[1] is power and t[2] is above
                and c.trump == trump):
            self.tables_of = None
            setup_tables(c, trump, values, power, above)
            if type(values) is tuple and type(power) is tuple and type(above) is tuple:
                self.tables_of = (values, power, above)
        setup(c, h0, h1, h2, h3, leader, trick, flag, mover & 1, step, ot, mu)
        return c

    def solve_cards(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int trump,
                    int leader, list trick, int flag, int step, int ot, int mu, values, power,
                    above):
        """Each legal card of the player to move and the points its team wins from here on.

        ``flag``: that team has won every trick so far. Returns ``(cards, values, nodes)``."""
        cdef Ctx* c = self.prepare(h0, h1, h2, h3, trump, leader, trick, flag, step, ot, mu,
                                   values, power, above)
        cdef int mover = (leader + step * len(trick)) & 3
        cdef int tn = c.tn
        cdef uint32_t hand = c.hands[mover]
        cdef uint32_t moves = legal(c, hand)
        cdef int oldwin = c.twin
        cdef int card, v, same, prev = -1
        cdef int known[32]
        cards = []
        vals = []
        cdef uint32_t m = moves
        while m:
            card = __builtin_ctz(m)
            m &= m - 1
            same = equivalent_below(c, card, hand)
            if same >= 0 and (moves >> same) & 1 and same < card:
                # an equivalent card, already searched (lower cards come first): its value
                known[card] = known[same]
                cards.append(card)
                vals.append(known[card])
                continue
            c.hands[mover] = hand & ~(1u << card)
            c.left -= 1
            c.tcards[tn] = card
            if tn == 0:
                c.twin = 0
            elif (c.beaters[c.tcards[oldwin]] >> card) & 1:
                c.twin = tn
            with nogil:
                v = root_value(c, tn, prev)
            prev = v
            known[card] = v
            c.twin = oldwin
            c.left += 1
            c.hands[mover] = hand
            cards.append(card)
            vals.append(v)
        return cards, vals, c.nodes

    def solve_best(self, uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3, int trump,
                   int leader, list trick, int flag, int step, int ot, int mu, values, power,
                   above):
        """The points the mover's team wins from here on with its best card:
        ``(value, nodes)``."""
        cdef Ctx* c = self.prepare(h0, h1, h2, h3, trump, leader, trick, flag, step, ot, mu,
                                   values, power, above)
        cdef int v
        with nogil:
            v = search(c, -1, INF)
        return v, c.nodes
