# cython: language_level=3
"""The rule of legal cards and the constants that the compiled modules share (``fast._core``'s
playouts and ``solver._search``'s search cimport them from here), on int cards (0..31,
suit * 8 + rank) and 32-bit hands. :func:`rebelote.rules.legal_mask` is the readable rule;
the tests hold both compiled modules equal to it."""

from libc.stdint cimport uint32_t

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil

cdef enum:
    NO_TRUMP = 4
    ALL_TRUMP = 5
    DIX_DE_DER = 10
    CAPOT_EXTRA = 90  # a capot's last trick is worth 100, not the dix de der's 10


cdef extern from *:
    """
    static const uint32_t rebelote_suit_masks[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};
    """
    const uint32_t* rebelote_suit_masks


cdef inline uint32_t suit_mask(int suit) noexcept nogil:
    """The 8 cards of ``suit`` in a hand."""
    return rebelote_suit_masks[suit]


cdef inline uint32_t legal_cards(uint32_t hand, const int* trick, int n, int win, int trump,
                                 int ot, int mu, const uint32_t* above) noexcept nogil:
    """The cards of ``hand`` that may be played on the ``n`` cards of ``trick`` (``win``: the
    index of the card winning it) in trump mode ``trump``; ``ot``: a player must overtrump
    the partner's winning trump; ``mu``: a player who cannot overtrump must still trump (must
    undertrump); ``above[c]``: the cards of ``c``'s suit that beat ``c``."""
    if n == 0:
        return hand
    cdef int led = trick[0] >> 3
    cdef uint32_t follow = hand & suit_mask(led)
    cdef uint32_t x
    if trump == NO_TRUMP:
        return follow if follow else hand
    cdef int partner_winning = n >= 2 and win == n - 2
    cdef int winning = trick[win]
    if trump == ALL_TRUMP:
        if not follow:
            return hand
        if partner_winning and not ot:
            return follow
        x = follow & above[winning]
        return x if x else follow
    if follow:
        if led != trump or (partner_winning and not ot):
            return follow
        x = follow & above[winning]
        return x if x else follow
    if partner_winning:
        return hand
    cdef uint32_t trumps = hand & suit_mask(trump)
    if not trumps:
        return hand
    if (winning >> 3) != trump:
        return trumps
    x = trumps & above[winning]
    if x:
        return x
    return trumps if mu else hand
