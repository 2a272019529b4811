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
#     description: "The chapter's head as a notebook: change the typed table or the query, key
#       and value matrices and rerun the head, the square, the shares and the cost."
#     hide: [toc]
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
# The cell under this one installs what the rest needs, the `attend` package at the
# version this page was built with and matplotlib, from PyPI.

# %%
import matplotlib.pyplot as plt
import numpy as np

from attend import (
    CHAPTER_ENTRY,
    DK,
    SLOTS,
    WK,
    WQ,
    WV,
    D,
    Head,
    chapter_head,
    chapter_tokens,
    cost_sweep,
    crossover,
    load_tokenizer,
    typed_table,
)

np.set_printoptions(precision=4, floatmode="fixed", suppress=True)
tokenizer = load_tokenizer()

# %% [markdown]
# ## The row and the typed table
#
# The head reads the first four{= count} tokens of one chronicle entry. Change `text` to read
# something else, or `count` to read more of it.

# %%
text = CHAPTER_ENTRY
count = 4

tokens = tokenizer.encode(text)[:count]
labels = [tokenizer.piece(t).decode("utf-8", errors="replace")
          for t in tokens]
for n, (token, piece) in enumerate(zip(tokens, labels, strict=True), 1):
    print(f"{n:3d}  token {token:4d}  {piece!r}")

# %% [markdown]
# Each token arrives with four{= x.shape[1]} typed numbers, one row of the typed table. The table is
# read-only in the package; here it is a copy you can edit. The chapter's tokens 2 and 4
# (`"0"` and `"7"`) arrive with the same row, which is why the head cannot tell them apart.
# Give one of them something the other lacks, in a slot the query reads: uncomment the line
# `table[tokens[3]] = suggestion` below, which marks the 7{= int(tokenizer.piece(tokens[3]))} as part of a count (slot 3, true
# of it), run the cells again, and watch rows 2 and 4 of the shares part. A change to slot 4
# alone would not do it: no weight of Wq reads slot 4, so the two queries would stay equal.

# %%
table = typed_table().copy()  # a row of four for each token in the table
suggestion = [1.0, 0.0, 1.0, 0.0]  # a bare digit that carries a count
# table[tokens[3]] = suggestion  # try it: token 4 is no longer token 2's twin

x = table[tokens]
print(" " * 12 + "".join(f"{slot:>16}" for slot in SLOTS))
for piece, row in zip(labels, x, strict=True):
    print(f"{piece[:9]!r:<12}" + "".join(f"{v:16.2f}" for v in row))

# %% [markdown]
# ## The three{= qkv} matrices
#
# One row of four{= wq.shape[1]} weights per output slot, as the chapter prints them. Edit any number;
# `divide` switches the divide by √dk on and off.

# %%
wq = np.array(WQ).reshape(DK, D)
wk = np.array(WK).reshape(DK, D)
wv = np.array(WV).reshape(DK, D)
divide = True

for name, m in (("Wq", wq), ("Wk", wk), ("Wv", wv)):
    print(name)
    print(m)

# %% [markdown]
# ## The head
#
# One run keeps every intermediate number: the queries, keys and values, the square before
# and after the divide, the shares, and what each token leaves with.

# %%
head = Head(D, DK, wq, wk, wv, divide=divide)
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
heat(right, run.scaled, f"divided by {run.div:.4f}", "magma_r")
plt.show()

# %% [markdown]
# Each row of the divided square through the softmax: shares that add to one.

# %%
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
heat(ax, run.attn, "each row as shares of one", "viridis_r", 0.0, 1.0)
plt.show()

print("each row adds to", run.attn.sum(axis=1))
print("what each token leaves with")
print(run.out)
pairs = range(len(x))
same = [(i + 1, j + 1) for i in pairs for j in pairs
        if i < j and np.array_equal(run.attn[i], run.attn[j])]
print("rows with identical shares:", same or "none")

# %% [markdown]
# The promise made under the typed table, checked on the chapter's own head and row every
# time this page is built: as typed, rows 2 and 4 of the shares are the same; with the
# suggested edit they part.

# %%
chapter = list(chapter_tokens())
edited = typed_table().copy()
edited[chapter[3]] = suggestion
as_typed = chapter_head().attend(typed_table()[chapter]).attn
with_edit = chapter_head().attend(edited[chapter]).attn
assert np.array_equal(as_typed[1], as_typed[3]), "as typed, rows 2 and 4 should match"
assert not np.allclose(with_edit[1], with_edit[3]), "the suggested edit should part rows 2 and 4"
print("as typed, row 2 ", as_typed[1], "\n          row 4 ", as_typed[3])
print("edited,   row 2 ", with_edit[1], "\n          row 4 ", with_edit[3])

# %% [markdown]
# ## The cost
#
# The head counts its multiply-adds where they happen. At this row length:

# %%
cost = run.cost
print(f"queries, keys and values {cost.project:8d}")
print(f"each query against a key {cost.score:8d}")
print(f"mixing the values        {cost.mix:8d}")
print(f"altogether               {cost.total:8d}")

# %% [markdown]
# And the same head on longer rows cut from the front of the chronicle: the projections
# grow in a straight line, the pairs as the square. Change `rows` to measure other lengths.
# (The count depends only on a row's length and the widths, never on the numbers in it.)

# %%
rows = [4, 8, 16, 32, 64, 128, 256]
costs = cost_sweep(rows, head=head)
print("length  projections      pairs  altogether")
for c in costs:
    print(f"{c.length:6d} {c.project:12d} {c.quadratic:10d} {c.total:11d}")

n = crossover(head)
print(f"the pairs overtake the projections at n = {n}")

tokens_ = [c.length for c in costs]
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
ax.loglog(tokens_, [c.project for c in costs], "o-", label="q, k and v")
ax.loglog(tokens_, [c.quadratic for c in costs], "s-", label="the pairs")
ax.axvline(n, color="grey", linestyle="--", linewidth=0.8)
ax.set_xlabel("tokens in the row")
ax.set_ylabel("multiply-adds, counted")
ax.legend()
plt.show()
