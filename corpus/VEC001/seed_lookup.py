import torch

vocab_size, num_types, dim = 100, 8, 16
token_to_type = torch.randint(0, num_types, (vocab_size,))
type_embeddings = torch.randn(num_types, dim)
input_ids = torch.randint(0, vocab_size, (32,))
embeddings = torch.zeros(len(input_ids), dim)

# Slow: Python loop
for i, token_id in enumerate(input_ids):  # want: VEC001
    type_id = token_to_type[token_id]
    embeddings[i] = type_embeddings[type_id]

print(embeddings.sum())
