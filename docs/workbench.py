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
#   mkdocs:
#     title: The workbench
#     description: "The book's attention head as a notebook: change the embedding table or
#       W_Q, W_K and W_V, run the head again, and see its scores, attention weights and cost."
#     hide: [toc]
# ---

# %% [markdown]
# # The workbench
#
# The attention head of the book's opening pages, from "The bare digit token" to "Why
# attention weights are data", laid out so you can change it. Every cell below was run when
# this page was built, so what you see under each one is what the package printed. Download
# the notebook (the button at the top right), change an embedding or a weight matrix, and run
# all the cells again: the queries, keys and values, the score matrix, the attention weights
# and the cost are worked out afresh from whatever you typed.
#
# The cell under this one installs what the rest needs, the `attend` package at the
# version this page was built with and matplotlib, from PyPI.

# %%
import matplotlib.pyplot as plt
import numpy as np

from attend import (
    CHAPTER_ENTRY,
    D_K,
    DIMENSIONS,
    WK,
    WQ,
    WV,
    D_MODEL,
    Head,
    chapter_head,
    chapter_tokens,
    cost_sweep,
    crossover,
    load_tokenizer,
    embedding_table,
)

np.set_printoptions(precision=4, floatmode="fixed", suppress=True)
tokenizer = load_tokenizer()

# %% [markdown]
# ## The sequence and the embedding table
#
# The head reads a sequence of the first four{= count} tokens of one chronicle entry. Change
# `text` to read something else, or `count` to read more of it.

# %%
text = CHAPTER_ENTRY
count = 4

tokens = tokenizer.encode(text)[:count]
labels = [tokenizer.piece(t).decode("utf-8", errors="replace")
          for t in tokens]
for n, (token, piece) in enumerate(zip(tokens, labels, strict=True), 1):
    print(f"{n:3d}  token {token:4d}  {piece!r}")

# %% [markdown]
# Each token arrives with an embedding of d_model = four{= x.shape[1]} numbers, its row of the
# embedding table, whose dimensions a rule types by hand (`DIMENSIONS` names them). The table is
# read-only in the package; here it is a copy you can edit. Tokens 2 and 4 (`"0"` and `"7"`)
# arrive with the same embedding, which is why the head cannot tell them apart. Give one of
# them something the other lacks, in a dimension the query reads: uncomment the line
# `table[tokens[3]] = suggestion` below, which marks the 7{= int(tokenizer.piece(tokens[3]))} as part of a count (dimension 3,
# true of it: it is a digit of the birth count), and run the cells again. A change to
# dimension 4 alone would not do it: no weight of W_Q reads dimension 4, so the two queries
# would stay equal. Before you do, predict: with the edit, will the `7` give more of its
# attention to its own count token, token 3?

# %%
table = embedding_table().copy()  # a row of four for each token in the table
suggestion = [1.0, 0.0, 1.0, 0.0]  # a bare digit that carries a count
# table[tokens[3]] = suggestion  # try it: token 4 is no longer token 2's twin

x = table[tokens]
print(" " * 12 + "".join(f"{slot:>16}" for slot in DIMENSIONS))
for piece, row in zip(labels, x, strict=True):
    print(f"{piece[:9]!r:<12}" + "".join(f"{v:16.2f}" for v in row))

# %% [markdown]
# ## W_Q, W_K and W_V
#
# Each matrix is stored as one row of four{= wq.shape[1]} weights per output dimension (the
# transpose of the d_model × d_k matrix the formula writes). Edit any number; `divide` switches
# scaling by √d_k on and off.

# %%
wq = np.array(WQ).reshape(D_K, D_MODEL)
wk = np.array(WK).reshape(D_K, D_MODEL)
wv = np.array(WV).reshape(D_K, D_MODEL)
divide = True

for name, m in (("W_Q", wq), ("W_K", wk), ("W_V", wv)):
    print(name)
    print(m)

# %% [markdown]
# ## The head
#
# One run keeps every intermediate number: the queries, keys and values, the score matrix
# before and after scaling, the attention weights, and the head's output for each token.

# %%
head = Head(D_MODEL, D_K, wq, wk, wv, divide=divide)
run = head.attend(x)
print("queries\n", run.q)
print("keys\n", run.k)
print("values\n", run.v)

# %% [markdown]
# ## The score matrix and the attention weights
#
# Row *i* is token *i*'s query against every key. The attention weights are each row of the
# scaled scores through the softmax, so each row adds to one.

# %%
short = [f"{n} {p[:12]!r}" for n, p in enumerate(labels, start=1)]


def heat(ax, square, title, cmap, lo=None, hi=None):
    """One square as a heat map, every cell printed to four places."""
    lo = square.min() if lo is None else lo
    hi = square.max() if hi is None else hi
    ax.imshow(square, cmap=cmap, vmin=lo, vmax=hi)
    numbers = [str(n) for n in range(1, len(short) + 1)]
    ax.set_xticks(range(len(short)), numbers)
    ax.set_yticks(range(len(short)), short)
    ax.set_title(title)
    for (i, j), value in np.ndenumerate(square):
        ink = "white" if value > (lo + hi) / 2 else "black"
        ax.text(j, i, f"{value:.4f}", ha="center", va="center",
                fontsize=8, color=ink)


fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4),
                                  layout="constrained")
heat(left, run.raw, "every query dotted with every key", "magma_r")
heat(right, run.scaled, f"scaled: divided by {run.div:.4f}", "magma_r")
plt.show()

# %% [markdown]
# Each row of the scaled scores through the softmax: attention weights that add to one.

# %%
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
heat(ax, run.weights, "attention weights, each row adding to one", "viridis_r", 0.0, 1.0)
plt.show()

print("each row adds to", run.weights.sum(axis=1))
print("the head's output for each token")
print(run.out)
pairs = range(len(x))
same = [(i + 1, j + 1) for i in pairs for j in pairs
        if i < j and np.array_equal(run.weights[i], run.weights[j])]
print("tokens with identical attention weights:", same or "none")

# %% [markdown]
# What the edit does, checked on the book's own head and sequence every time this page is
# built, whatever you changed above: as typed, tokens 2 and 4 have the same attention weights;
# with the suggested edit they differ.

# %%
chapter = list(chapter_tokens())
edited = embedding_table().copy()
edited[chapter[3]] = suggestion
as_typed = chapter_head().attend(embedding_table()[chapter]).weights
with_edit = chapter_head().attend(edited[chapter]).weights
assert np.array_equal(as_typed[1], as_typed[3]), "as typed, tokens 2 and 4 should match"
assert not np.allclose(with_edit[1], with_edit[3]), "the suggested edit should part tokens 2 and 4"
print("as typed, token 2 ", as_typed[1], "\n          token 4 ", as_typed[3])
print("edited,   token 2 ", with_edit[1], "\n          token 4 ", with_edit[3])

# %% [markdown]
# So the edit tells the two digits apart. Now the question asked above: does the `7` give
# more of its attention to its own count token? The cell below answers it from the two runs.

# %%
year, count_token, zero, itself = 0, 2, 1, 3  # where each token stands, counted from 0
before, after = as_typed[3], with_edit[3]  # the 7's attention weights
print(f"the 7's weight on its count token: {before[count_token]:.4f} as typed, "
      f"{after[count_token]:.4f} edited")
print(f"the 7's weight on year 4:          {before[year]:.4f} as typed, {after[year]:.4f} edited")
print("the token it weighs most, edited:  ", int(after.argmax()) + 1)
query = chapter_head().attend(edited[chapter]).q[3]
assert after[count_token] < before[count_token] and after.argmax() == year

# %% [markdown]
# No. After the edit the `7` gives its own count token 0.1170{= after[count_token]}, less than
# the 0.1769{= before[count_token]} it gave as typed, and it still gives `year 4`, the year that
# is not its own, more than any other token: 0.3837{= after[year]}. The edit parted the two
# digits without teaching the `7` anything about where its count is.
#
# The reason is in W_Q. Query dimension 1 is "carries a count" times 2{= wq[0, 2]}, and it meets key
# dimension 1, "a bare digit": it is the question the count token asks, which looks for lone
# digits. Marked as carrying a count, the `7` now asks that question too, so its query becomes
# (2, 3, 0.5, 0){= query} and its attention moves to the lone digits, the `0`
# (0.2186{= after[zero]}) and itself (0.2807{= after[itself]}). For the `7` to prefer its count
# token, its query would have to ask for something only that token's key holds, key dimension 3
# ("carries a count" plus 0.5{= wk[2, 3]} times "how much it says"). Try changing `wq` so that it does, and
# see what that does to the other tokens.

# %% [markdown]
# ## The cost
#
# The head counts its multiply-adds where they happen. At this sequence length:

# %%
cost = run.cost
print(f"queries, keys and values {cost.project:8d}")
print(f"each query against a key {cost.score:8d}")
print(f"mixing the values        {cost.mix:8d}")
print(f"altogether               {cost.total:8d}")

# %% [markdown]
# And the same head on longer sequences cut from the front of the chronicle: the projections
# grow in a straight line, the query-key pairs as the square of the length. Change `lengths`
# to measure other lengths. (The count depends only on a sequence's length and the widths,
# never on the numbers in it.)

# %%
lengths = [4, 8, 16, 32, 64, 128, 256]
costs = cost_sweep(lengths, head=head)
print("length  projections      pairs  altogether")
for c in costs:
    print(f"{c.length:6d} {c.project:12d} {c.quadratic:10d} {c.total:11d}")

n = crossover(head)
print(f"the query-key pairs overtake the projections at n = {n}")

tokens_ = [c.length for c in costs]
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
ax.loglog(tokens_, [c.project for c in costs], "o-", label="q, k and v")
ax.loglog(tokens_, [c.quadratic for c in costs], "s-", label="query-key pairs")
ax.axvline(n, color="grey", linestyle="--", linewidth=0.8)
ax.set_xlabel("tokens in the sequence")
ax.set_ylabel("multiply-adds, counted")
ax.legend()
plt.show()
