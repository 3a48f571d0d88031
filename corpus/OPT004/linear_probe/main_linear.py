# gpuopt-env: torch=2.4
# A linear probe: the trained classifier is one nn.Linear of another
# module, which torch.compile has nothing to fuse in.
import torch

from networks import LinearClassifier

classifier = LinearClassifier(2048, 10).cuda()
optimizer = torch.optim.SGD(classifier.parameters(), lr=0.1, fused=True)
for step in range(100):
    features = torch.randn(256, 2048, device="cuda")
    labels = torch.randint(0, 10, (256,), device="cuda")
    loss = torch.nn.functional.cross_entropy(classifier(features), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
