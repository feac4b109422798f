# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""The compiled core of the play: legal masks, trick winners and points, random playouts, on
int cards (0..31, suit * 8 + rank) and 32-bit hands.

Each function is the rule of :mod:`rebelote.rules` (``legal_mask``, ``trick_winner``,
``trick_points``) on C ints; the tests hold them equal to it on tens of thousands of random
positions. The tables a caller passes (``above``: for each card the cards of its suit that beat
it, ``values``: each card's points) come from :mod:`rebelote.rules` for the trump mode.
"""

from libc.stdint cimport uint32_t, uint64_t

from rebelote.fast._rules cimport (
    ALL_TRUMP, CAPOT_EXTRA, DIX_DE_DER, NO_TRUMP, __builtin_ctz, __builtin_popcount, legal_cards,
    suit_mask,
)


cdef struct Tables:
    uint32_t above[32]
    uint32_t beaters[32]
    int values[32]
    int trump
    int ot
    int mu


cdef inline uint32_t c_legal(const Tables* t, uint32_t hand, const int* trick, int n, int win
                             ) noexcept nogil:
    return legal_cards(hand, trick, n, win, t.trump, t.ot, t.mu, t.above)


cdef void fill(Tables* t, int trump, int ot, int mu, above, values) except *:
    cdef int i
    t.trump = trump
    t.ot = ot
    t.mu = mu
    for i in range(32):
        t.above[i] = above[i]
        t.values[i] = values[i] if values is not None else 0
    for i in range(32):
        t.beaters[i] = t.above[i]
        if trump < 4 and (i >> 3) != trump:
            t.beaters[i] |= suit_mask(trump)


cdef inline int c_winner(const Tables* t, const int* trick, int n) noexcept nogil:
    cdef int win = 0
    cdef int i
    for i in range(1, n):
        if (t.beaters[trick[win]] >> trick[i]) & 1:
            win = i
    return win


def legal_mask(uint32_t hand, trick, int trump, bint overtrump_partner, bint must_undertrump,
               above):
    """:func:`rebelote.rules.legal_cards` of ``hand`` on ``trick`` (cards in play order)."""
    cdef Tables t
    cdef int cards[4]
    cdef int n = len(trick)
    cdef int i
    if n > 3:
        raise ValueError("trick: at most three cards before the player")
    fill(&t, trump, overtrump_partner, must_undertrump, above, None)
    for i in range(n):
        cards[i] = trick[i]
    return c_legal(&t, hand, cards, n, c_winner(&t, cards, n))


def trick_winner(trick, int trump, above):
    """The index (play order) of the card winning ``trick`` so far."""
    cdef Tables t
    cdef int cards[4]
    cdef int n = len(trick)
    cdef int i
    if not 0 < n <= 4:
        raise ValueError("trick: one to four cards")
    fill(&t, trump, 1, 0, above, None)
    for i in range(n):
        cards[i] = trick[i]
    return c_winner(&t, cards, n)


def trick_points(trick, values):
    """The card points of ``trick`` (without the dix de der)."""
    cdef int total = 0
    for c in trick:
        total += values[c]
    return total


cdef inline uint64_t next_random(uint64_t* s) noexcept nogil:
    # splitmix64
    s[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = s[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int nth_bit(uint32_t m, int k) noexcept nogil:
    while k:
        m &= m - 1
        k -= 1
    return __builtin_ctz(m)


cdef void c_playout(const Tables* t, uint32_t* hands, int leader, int step, int* trick,
                    int n, const int* choices, int n_choices, uint64_t* rng, int* out
                    ) noexcept nogil:
    """Play to the end from ``hands`` and the ``n`` cards of ``trick`` led by ``leader``:
    the k-th legal card (``choices`` in turn, modulo the count) or a random one once
    ``choices`` are used up. ``out``: points NS, points EW, tricks NS, tricks EW (in and
    out: the points and tricks so far are added to)."""
    cdef int win = c_winner(t, trick, n) if n else 0
    cdef int used = 0
    cdef int seat, k, card, count, pts, i, team
    cdef uint32_t legal
    while True:
        while n < 4:
            seat = (leader + step * n) & 3
            legal = c_legal(t, hands[seat], trick, n, win)
            count = __builtin_popcount(legal)
            if used < n_choices:
                k = choices[used] % count
                used += 1
            else:
                k = <int> (((next_random(rng) >> 32) * <uint64_t> count) >> 32)
            card = nth_bit(legal, k)
            hands[seat] &= ~(1u << card)
            if n and (t.beaters[trick[win]] >> card) & 1:
                win = n
            trick[n] = card
            n += 1
        pts = t.values[trick[0]] + t.values[trick[1]] + t.values[trick[2]] + t.values[trick[3]]
        leader = (leader + step * win) & 3
        team = leader & 1
        out[team] += pts
        out[2 + team] += 1
        n = 0
        win = 0
        if not (hands[0] | hands[1] | hands[2] | hands[3]):
            out[team] += DIX_DE_DER
            if out[3 - team] == 0:  # the other team took no trick: a capot
                out[team] += CAPOT_EXTRA
            return


def playout(hands, int trump, int leader, trick, bint overtrump_partner,
            bint must_undertrump, int step, above, values, choices, points=(0, 0),
            tricks=(0, 0)):
    """One deal played to its end from a position, choosing at each turn the ``k``-th legal
    card (lowest card first) for ``k`` in ``choices`` (modulo the number of legal cards);
    returns ``(points NS, points EW, tricks NS, tricks EW)``, final card points with the dix
    de der and a capot's 252. Held equal to the same choices through :mod:`rebelote.rules`."""
    cdef Tables t
    cdef uint32_t h[4]
    cdef int cards[4]
    cdef int ch[32]
    cdef int out[4]
    cdef int n = len(trick)
    cdef int i, nc = min(len(choices), 32)
    cdef uint64_t rng = 1
    fill(&t, trump, overtrump_partner, must_undertrump, above, values)
    for i in range(4):
        h[i] = hands[i]
    for i in range(n):
        cards[i] = trick[i]
    for i in range(nc):
        ch[i] = choices[i]
    out[0] = points[0]
    out[1] = points[1]
    out[2] = tricks[0]
    out[3] = tricks[1]
    c_playout(&t, h, leader, step, cards, n, ch, nc, &rng, out)
    return out[0], out[1], out[2], out[3]


def random_playouts(hands, int trump, int leader, bint overtrump_partner,
                    bint must_undertrump, int step, above, values, long count,
                    unsigned long long seed):
    """``count`` random playouts from the first lead of a deal (``hands`` of 8 cards, seats
    0..3 = N E S W, ``leader`` leads): the total final card points of NS and of EW over all
    of them."""
    cdef Tables t
    cdef uint32_t start[4]
    cdef uint32_t h[4]
    cdef int cards[4]
    cdef int out[4]
    cdef long i
    cdef long long ns = 0, ew = 0
    cdef uint64_t rng = seed
    fill(&t, trump, overtrump_partner, must_undertrump, above, values)
    for i in range(4):
        start[i] = hands[i]
    with nogil:
        for i in range(count):
            h[0] = start[0]
            h[1] = start[1]
            h[2] = start[2]
            h[3] = start[3]
            out[0] = 0
            out[1] = 0
            out[2] = 0
            out[3] = 0
            c_playout(&t, h, leader, step, cards, 0, NULL, 0, &rng, out)
            ns += out[0]
            ew += out[1]
    return ns, ew


def random_play(hands, int trump, int leader, trick, bint overtrump_partner,
                bint must_undertrump, int step, above, values, int belote_cards, draws):
    """The play of a deal to its end from ``hands`` and the cards of ``trick`` (led by
    ``leader``), as :func:`rebelote.fast.playout.reference_playout` plays it: for each ``u`` of
    ``draws`` (floats in [0, 1), one per card left), the card ``legal[int(u * len(legal))]`` of
    the legal cards lowest first. Returns the cards played (in order), the leader of each
    trick completed, the card points of NS and of EW in those tricks (no dix de der), the mask
    of the seats that won one of them, the last trick's winner, the hands left and the
    ``(seat, card)`` of each card of ``belote_cards`` played, in order."""
    cdef Tables t
    cdef uint32_t h[4]
    cdef int cards[4]
    cdef int n = len(trick)
    cdef int i, seat, count, card, win, team
    cdef int winners = 0
    cdef int pts[2]
    cdef double u
    cdef uint32_t legal
    if n > 3:
        raise ValueError("trick: at most three cards before the player")
    fill(&t, trump, overtrump_partner, must_undertrump, above, values)
    for i in range(4):
        h[i] = hands[i]
    for i in range(n):
        cards[i] = trick[i]
    win = c_winner(&t, cards, n) if n else 0
    pts[0] = 0
    pts[1] = 0
    played = []
    leaders = []
    belote = []
    for x in draws:
        u = x
        seat = (leader + step * n) & 3
        legal = c_legal(&t, h[seat], cards, n, win)
        count = __builtin_popcount(legal)
        if count == 0:
            raise ValueError(f"hands: the seat {seat} has no card to play")
        card = nth_bit(legal, <int> (u * count))
        h[seat] &= ~(1u << card)
        if n and (t.beaters[cards[win]] >> card) & 1:
            win = n
        cards[n] = card
        n += 1
        played.append(card)
        if (belote_cards >> card) & 1:
            belote.append((seat, card))
        if n < 4:
            continue
        leaders.append(leader)
        leader = (leader + step * win) & 3
        pts[leader & 1] += (t.values[cards[0]] + t.values[cards[1]] + t.values[cards[2]]
                            + t.values[cards[3]])
        winners |= 1 << leader
        n = 0
        win = 0
    return (played, leaders, pts[0], pts[1], winners, leader, (h[0], h[1], h[2], h[3]),
            belote)
