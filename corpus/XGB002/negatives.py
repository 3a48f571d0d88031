import xgboost as xgb

# Strings that merely mention gpu_hist are not parameters.
print("tree_method gpu_hist is deprecated")
doc = "use gpu_hist on old versions"
other = {"method": "gpu_hist"}
params = {"tree_method": "hist", "device": "cuda"}
name = "tree_method"
dynamic = {name: "gpu_hist"}
