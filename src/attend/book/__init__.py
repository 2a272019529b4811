"""This book's part of the package: what its pages and its command print, built on `attend.core`.

The chapter's hand-typed matrices and tokens (`chapter`, with the embedding rule in
`embedding`), the earlier volume's neuron layer (`layer`), the chapter's two measurements
(`experiments`), positions measured on its tokens 2 and 4 (`parting`), published model shapes and
what they cost (`models`, `intensity`), and the `attend` command (`cli`), each of whose modes is
one module of `modes`, declared to `registry` with its flags (`flags`) and laid out by `layout`.
"""
