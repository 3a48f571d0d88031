# Forces of an interatomic potential: minus the gradient of the predicted
# energy with respect to the atom positions, kept in the graph so that
# the force error trains the network (a double backward).
import torch


def predicted_forces(energy, positions):
    return -torch.autograd.grad(
        energy,
        positions,
        grad_outputs=torch.ones_like(energy),
        create_graph=True,
    )[0]


def energy_force_loss(energy, positions, energy_ref, forces_ref, rho=0.01):
    forces = predicted_forces(energy, positions)
    return (rho * (energy - energy_ref) ** 2).mean() + ((forces - forces_ref) ** 2).sum(-1).mean()
