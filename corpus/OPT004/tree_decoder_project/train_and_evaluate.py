# A GTS-style tree decoder's training step (blind sample S32I's
# Graph2Tree): the prediction and merge modules run once per decoding
# step, on Python stacks of tree nodes, before one backward.
import torch


class TreeNode:
    def __init__(self, embedding):
        self.embedding = embedding


def train_tree(inputs, targets, encoder, predict, merge, optimizer):
    optimizer.zero_grad()
    outputs = encoder(inputs)
    node_stacks = [[TreeNode(h)] for h in outputs.split(1, dim=0)]
    left_childs = []
    all_scores = []
    for t in range(targets.size(1)):
        scores, goal = predict(node_stacks, left_childs, outputs)
        all_scores.append(scores)
        for stack, g in zip(node_stacks, goal.split(1, dim=0)):
            if stack:
                node = stack.pop()
                left_childs.append(merge(node.embedding, g))
    loss = torch.nn.functional.cross_entropy(torch.stack(all_scores, dim=1).flatten(0, 1), targets.flatten())
    loss.backward()
    optimizer.step()
    return loss.detach()


def train_unrolled(x, cell, optimizer, steps):
    # a cellular automaton: one tensor, the same shape every step
    optimizer.zero_grad()
    for _ in range(steps):
        x = cell(x)
    loss = x.pow(2).mean()
    loss.backward()
    optimizer.step()
