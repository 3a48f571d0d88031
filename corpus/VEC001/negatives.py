import torch

ids = torch.randint(0, 10, (16,))
table = torch.randn(10)
lut = torch.randint(0, 10, (10,))
out = torch.zeros(16)
names = {0: "a", 1: "b"}

# Prefix sum: each iteration reads what the previous one wrote.
for a1, b1 in enumerate(ids):
    out[a1] = out[a1 - 1] + table[b1] if a1 else table[b1]

# Recurrence through the output.
for a2, b2 in enumerate(ids):
    out[a2] = table[lut[b2]]
    table[b2] = out[a2]

# Other effects in the body.
for a3, b3 in enumerate(ids):
    print(b3)
    out[a3] = table[b3]

# The loop variable escapes: read after the loop.
for j, u in enumerate(ids):
    out[j] = table[u]
print(j, u)

# The temporary escapes.
for i2, t2 in enumerate(ids):
    tmp = lut[t2]
    out[i2] = table[tmp]
print(tmp)

# Reads the output it writes (a recurrence through out).
for a5, b5 in enumerate(ids):
    out[a5] = out[lut[b5]]

# A dict lookup: not a tensor gather.
labels = [None] * 16
for i3, t3 in enumerate(ids):
    labels[i3] = names[t3]


# Unknown types: parameters without annotations.
def unknown(ids, table, out):
    for i, t in enumerate(ids):
        out[i] = table[t]


# Comments inside the loop: report, but no fix (they would be lost).
for i4, t4 in enumerate(ids):  # want: VEC001
    # look up the type
    out[i4] = table[t4]
