# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The workbench
#
# The chapter's head, laid out so you can change it. Every cell below was run when this
# page was built, so what you see under each one is what the package printed. Download the
# notebook (the button at the top right), change a typed row or a matrix, and run all the
# cells again: the head, the square, the shares and the cost are worked out afresh from
# whatever you typed.
#
# You need the `attend` package (`pip install -e .` in the repository), numpy and
# matplotlib.

# %%
import matplotlib.pyplot as plt
import numpy as np

from attend import (
    CHAPTER_ENTRY,
    D,
    DK,
    SLOTS,
    WK,
    WQ,
    WV,
    Head,
    cost_sweep,
    crossover,
    load_tokenizer,
    typed_table,
)

np.set_printoptions(precision=4, suppress=True, floatmode="fixed")
tokenizer = load_tokenizer()

# %% [markdown]
# ## The row and the typed table
#
# The head reads the first four tokens of one chronicle entry. Change `text` to read
# something else, or `count` to read more of it.

# %%
text = CHAPTER_ENTRY
count = 4

tokens = tokenizer.encode(text)[:count]
labels = [tokenizer.piece(t).decode("utf-8", errors="replace") for t in tokens]
for n, (token, piece) in enumerate(zip(tokens, labels, strict=True), start=1):
    print(f"{n:3d}  token {token:4d}  {piece!r}")

# %% [markdown]
# Each token arrives with four typed numbers, one row of the typed table. The table is
# read-only in the package; here it is a copy you can edit. The chapter's tokens 2 and 4
# (`"0"` and `"7"`) arrive with the same row, which is why the head cannot tell them apart.
# Give one of them something the other lacks, for instance
# `table[tokens[3]] = [1.0, 0.0, 0.0, 0.5]`, and watch rows 2 and 4 of the shares part.

# %%
table = typed_table().copy()  # one row of four for each of the 512 tokens
# table[tokens[3]] = [1.0, 0.0, 0.0, 0.5]   # <- try it: token 4 no longer looks like token 2

x = table[tokens]
print(" " * 26 + "".join(f"{slot:>18}" for slot in SLOTS))
for piece, row in zip(labels, x, strict=True):
    print(f"  {piece[:22]!r:<24}" + "".join(f"{v:18.2f}" for v in row))

# %% [markdown]
# ## The three matrices
#
# One row of four weights per output slot, as the chapter prints them. Edit any number;
# `scale` switches the divide by √dk on and off.

# %%
wq = np.array(WQ).reshape(DK, D)
wk = np.array(WK).reshape(DK, D)
wv = np.array(WV).reshape(DK, D)
scale = True

for name, m in (("Wq", wq), ("Wk", wk), ("Wv", wv)):
    print(name)
    print(m)

# %% [markdown]
# ## The head
#
# One run keeps every intermediate number: the queries, keys and values, the square before
# and after the divide, the shares, and what each token leaves with.

# %%
head = Head(D, DK, wq, wk, wv, scale=scale)
run = head.attend(x)
print("queries\n", run.q)
print("keys\n", run.k)
print("values\n", run.v)

# %% [markdown]
# ## The square and the shares
#
# Row *i* is token *i*'s query against every key. The shares are each row of the divided
# square through the softmax, so each row adds to one.

# %%
short = [f"{n} {p[:12]!r}" for n, p in enumerate(labels, start=1)]


def heat(ax, square, title, cmap, vmin=None, vmax=None):
    ax.imshow(square, cmap=cmap, vmin=vmin, vmax=vmax)
    ax.set_xticks(range(len(short)), [str(n) for n in range(1, len(short) + 1)])
    ax.set_yticks(range(len(short)), short)
    ax.set_title(title)
    middle = (square.min() + square.max()) / 2 if vmin is None else (vmin + vmax) / 2
    for i in range(len(square)):
        for j in range(len(square)):
            ax.text(j, i, f"{square[i, j]:.4f}", ha="center", va="center", fontsize=8,
                    color="white" if square[i, j] > middle else "black")


fig, axes = plt.subplots(1, 3, figsize=(13, 4), layout="constrained")
heat(axes[0], run.raw, "every query dotted with every key", "magma_r")
heat(axes[1], run.scaled, f"divided by {run.div:.4f}", "magma_r")
heat(axes[2], run.attn, "shares of one", "viridis_r", vmin=0.0, vmax=1.0)
plt.show()

print("each row adds to", run.attn.sum(axis=1))
print("what each token leaves with\n", run.out)
same = [(i + 1, j + 1) for i in range(len(x)) for j in range(i + 1, len(x))
        if np.array_equal(run.attn[i], run.attn[j])]
print("rows with identical shares:", same or "none")

# %% [markdown]
# ## The cost
#
# The head counts its multiply-adds where they happen. At this row length:

# %%
c = run.cost
print(f"queries, keys and values {c.project:8d}")
print(f"every query against a key {c.score:7d}")
print(f"mixing the values        {c.mix:8d}")
print(f"altogether               {c.total:8d}")

# %% [markdown]
# And the same head on longer rows cut from the front of the chronicle: the projections
# grow in a straight line, the pairs as the square. Change `rows` to measure other lengths.
# (The count depends only on a row's length and the widths, never on the numbers in it.)

# %%
rows = [4, 8, 16, 32, 64, 128, 256]
costs = cost_sweep(rows, head=head)
for cost in costs:
    print(f"{cost.tokens:6d} tokens  q, k and v {cost.project:8d}  the pairs {cost.quadratic:9d}"
          f"  altogether {cost.total:9d}")

n = crossover(head)
print(f"the pairs overtake the projections at n = {n}")

fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
ax.loglog([c.tokens for c in costs], [c.project for c in costs], "o-", label="q, k and v", base=2)
ax.loglog([c.tokens for c in costs], [c.quadratic for c in costs], "s-", label="the pairs", base=2)
ax.axvline(n, color="grey", linestyle="--", linewidth=0.8)
ax.set_xlabel("tokens")
ax.set_ylabel("multiply-adds")
ax.legend()
plt.show()
