"""Train the learned bidder's model (rebelote.bots.learned): examples from deals played out by
the heuristic, a small MLP fitted from a seed, the weights written with NumPy.

    nice -n 15 .venv/bin/python scripts/train_bidder.py --deals 2000 --seed 1 \\
        --out src/rebelote/bots/data/bidder.npz
"""

from rebelote.bots.learned import main

if __name__ == "__main__":
    raise SystemExit(main())
