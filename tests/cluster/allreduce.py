# The all-reduce the cluster tests run with gantry-cli cluster torchrun: each rank adds rank+1, so
# every rank must print the same sum n(n+1)/2 (gloo on CPU).
import os, torch, torch.distributed as dist
dist.init_process_group("gloo")
r = dist.get_rank(); w = dist.get_world_size()
t = torch.tensor([float(r + 1)])
dist.all_reduce(t)
print("rank %d of %d node %s reduced %g" % (r, w, os.environ.get("NODE_RANK"), t.item()), flush=True)
dist.destroy_process_group()
