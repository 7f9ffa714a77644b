"""PyTorch datasets over Janus training data (needs torch, e.g. Debian's python3-torch).

NnueDataset(files, batch_size=16384, ...) and SelfplayDataset(files, batch_size=1024, ...) are
torch.utils.data.IterableDataset objects whose items are whole batches (dicts of tensors), read by
janus.NnueBatches / janus.SelfplayBatches; each iteration (epoch) reads the files again from the
start. Use them with DataLoader(dataset, batch_size=None). With several DataLoader workers, each
worker reads every files[worker_id::num_workers] file, so give at least as many files as workers.
"""
import torch
from torch.utils.data import IterableDataset, get_worker_info

from . import NnueBatches, SelfplayBatches

__all__ = ["NnueDataset", "SelfplayDataset"]


def _worker_files(files):
    files = [files] if isinstance(files, (str, bytes)) or hasattr(files, "__fspath__") else list(files)
    info = get_worker_info()
    return files if info is None else files[info.id::info.num_workers]


class NnueDataset(IterableDataset):
    """Batches of janus.NnueBatches as tensors: features (int64 (n, 2, 32), -1 padded), piece_count
    (int64 (n,)), score (float32 (n,), centipawns, side to move's view), result (float32 (n,), 1 / 0.5 / 0
    for the side to move). Keyword arguments go to janus.NnueBatches (king_buckets, max_score,
    keep_noisy, limit)."""

    def __init__(self, files, batch_size=16384, **options):
        self.files, self.batch_size, self.options = files, batch_size, options

    def __iter__(self):
        files = _worker_files(self.files)
        if not files:
            return
        for batch in NnueBatches(files, batch_size=self.batch_size, **self.options):
            yield {
                "features": torch.from_numpy(batch["features"]).long(),
                "piece_count": torch.from_numpy(batch["piece_count"]).long(),
                "score": torch.from_numpy(batch["score"]),
                "result": torch.from_numpy(batch["result"]),
            }


class SelfplayDataset(IterableDataset):
    """Batches of janus.SelfplayBatches as tensors: planes (float32 (n, C, 8, 8)), policy (float32
    (n, 1858)), legal (bool (n, 1858)), value (float32 (n,)), q (float32 (n,)), full_search (bool (n,)).
    Keyword arguments go to janus.SelfplayBatches (history, all_positions)."""

    def __init__(self, files, batch_size=1024, **options):
        self.files, self.batch_size, self.options = files, batch_size, options

    def __iter__(self):
        files = _worker_files(self.files)
        if not files:
            return
        for batch in SelfplayBatches(files, batch_size=self.batch_size, **self.options):
            yield {key: torch.from_numpy(value) for key, value in batch.items()}
