"""Newick text of a binary tree, for the input generators of this folder
(gen.py, genclade.py), written without recursion so that caterpillar-deep
trees of 10^5 tips need no deep stack."""


def newick(children, length, root, tip_name, inner_label):
    """Returns the Newick text of the tree below root, without the final
    ';': children[v] is None for a tip, else the pair of v's children;
    length[v] is the length of the branch above v (none is written for the
    root); a tip is written as tip_name(v):length, an inner node's closing
    parenthesis is followed by inner_label(v) (a name, or '') and, below the
    root, :length."""
    out = []
    stack = [(root, 0)]
    while stack:
        v, state = stack.pop()
        if children[v] is None:
            out.append("%s:%.6f" % (tip_name(v), length[v]))
            continue
        a, b = children[v]
        if state == 0:
            out.append("(")
            stack.append((v, 1))
            stack.append((a, 0))
        elif state == 1:
            out.append(",")
            stack.append((v, 2))
            stack.append((b, 0))
        else:
            out.append(")")
            if v != root:
                out.append("%s:%.6f" % (inner_label(v), length[v]))
    return "".join(out)
