from collections.abc import Sequence

class Solver:
    def solve_cards(self, h0: int, h1: int, h2: int, h3: int, trump: int, leader: int,
                    trick: list[int], flag: int, step: int, ot: int, mu: int,
                    values: Sequence[int], power: Sequence[int], above: Sequence[int]
                    ) -> tuple[list[int], list[int], int]: ...
    def solve_best(self, h0: int, h1: int, h2: int, h3: int, trump: int, leader: int,
                   trick: list[int], flag: int, step: int, ot: int, mu: int,
                   values: Sequence[int], power: Sequence[int], above: Sequence[int]
                   ) -> tuple[int, int]: ...
