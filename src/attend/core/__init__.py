"""The attention a reader studies, in the order the book builds it; it imports nothing of the book.

- `softmax` turns a row of scores into attention weights; `head` is one head, token by token,
  with its multiply-adds counted as they are made (`cost`, and `loops`, which redoes them one at
  a time to check the count);
- `attention` is the same last step on whole matrices, as a model's code writes it, under the
  `causal` and `padding` masks, with `positions` (sinusoidal and rotary);
- `heads` cuts a layer into several heads joined by W_O, and `kvcache` generates with and
  without a cache;
- `learn` is the smallest model that learns its matrices, its backward pass by hand, and
  `training` trains it on the chronicle that `tokenizer` learned its tokens from; `ngram` is
  the baseline without attention, a table of counts over the last few tokens, and `years` a
  task whose clue stands a whole line back, where that table fails;
- `checks` is where the public functions refuse what they cannot do, in one line, before any of
  the math above runs; `arrays` names the one array type handed between them.
"""
