"""View synthesis: pixel coordinates from camera matrices, then a bilinear
sample of the source image at them (SfMLearner's inverse_warp)."""
import torch
import torch.nn.functional as F


def inverse_warp(img, depth, pose_mat, intrinsics, intrinsics_inv):
    b, _, h, w = img.shape
    ys, xs = torch.meshgrid(torch.arange(h, device=img.device), torch.arange(w, device=img.device), indexing="ij")
    pixel_coords = torch.stack([xs, ys, torch.ones_like(xs)]).float().view(1, 3, -1).expand(b, 3, -1)
    cam_coords = (intrinsics_inv @ pixel_coords) * depth.view(b, 1, -1)
    proj = intrinsics @ pose_mat[:, :, :3]
    pcoords = proj @ cam_coords + (intrinsics @ pose_mat[:, :, 3:])
    x = 2 * pcoords[:, 0] / pcoords[:, 2].clamp(min=1e-3) / (w - 1) - 1
    y = 2 * pcoords[:, 1] / pcoords[:, 2].clamp(min=1e-3) / (h - 1) - 1
    grid = torch.stack([x, y], dim=2).view(b, h, w, 2)
    return F.grid_sample(img, grid, align_corners=False)


def photometric_loss(tgt, ref, depth, pose_mat, intrinsics):
    warped = inverse_warp(ref, depth, pose_mat, intrinsics, intrinsics.inverse())
    return (tgt - warped).abs().mean()
