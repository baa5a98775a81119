"""OCR of scans and images with RapidOCR (PP-OCR models, Chinese and English, shipped
inside the ``rapidocr`` wheel: nothing is downloaded at run time).  The engine loads once
(~1 s) and is kept for the session."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from desktop_app.core.errors import DocumentImportError
from desktop_app.memory.readers import Block, Cancel, PageText, PhaseProgress, ReadResult

log = logging.getLogger(__name__)

#: a recognised line below this confidence is noise (a logo, a smudge), not text
MIN_SCORE = 0.5
#: ... and so is a "line" of fewer word characters (a round logo reads as "O")
MIN_WORD_CHARS = 2
#: an image is scaled down to this many pixels on its longer side before the OCR
MAX_SIDE = 2400

#: the PP-OCR models inside the rapidocr wheel (Chinese + English, Apache-2.0)
MODEL_FILES = {
    "det": "PP-OCRv6_det_small.onnx",
    "rec": "PP-OCRv6_rec_small.onnx",
    "cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}
#: onnxruntime threads: two, so an import leaves a core to the window and the embedder
OCR_THREADS = 2

_engine = None
_engine_lock = threading.Lock()


class OcrUnavailableError(DocumentImportError):
    def __init__(self, why: str) -> None:
        super().__init__("ocr_unavailable", f"OCR not available: {why}")


def _ocr_engine():
    global _engine
    with _engine_lock:
        if _engine is None:
            try:
                from rapidocr import RapidOCR
            except ImportError as exc:
                raise OcrUnavailableError(type(exc).__name__) from exc
            logging.getLogger("RapidOCR").setLevel(logging.WARNING)
            _engine = RapidOCR(params=engine_params())
        return _engine


def engine_params() -> dict[str, object]:
    """RapidOCR's settings.  The models are named by path inside the installed package:
    without a path RapidOCR downloads a missing model, and a bundle that lost one must fail
    loudly, not reach the network.  Detection scales the LONGER side to at most 1280 px (its
    default scales the shorter side UP to 736: a wide screenshot became 5700 px wide and
    took 17 s instead of 1 s).  No angle classifier: scans and screenshots are upright."""
    import rapidocr

    models = Path(rapidocr.__file__).parent / "models"
    for name in MODEL_FILES.values():
        if not (models / name).is_file():
            raise OcrUnavailableError(f"model file missing: {name}")
    return {
        "Global.log_level": "warning",
        "Global.use_cls": False,
        "Det.model_path": str(models / MODEL_FILES["det"]),
        "Rec.model_path": str(models / MODEL_FILES["rec"]),
        "Cls.model_path": str(models / MODEL_FILES["cls"]),
        "Det.limit_type": "max",
        "Det.limit_side_len": 1280,
        "EngineConfig.onnxruntime.intra_op_num_threads": OCR_THREADS,
        "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    }


def ocr_image(image) -> list[Block]:
    """The text lines of a PIL image, top to bottom, with their boxes in its pixels."""
    import numpy as np

    image = image.convert("RGB")
    scale = 1.0
    if max(image.size) > MAX_SIDE:
        scale = MAX_SIDE / max(image.size)
        image = image.resize((round(image.width * scale), round(image.height * scale)))
    result = _ocr_engine()(np.asarray(image)[:, :, ::-1])  # RapidOCR takes BGR
    if result is None or result.boxes is None or result.txts is None:
        return []
    blocks = []
    for points, text, score in zip(result.boxes, result.txts, result.scores, strict=True):
        if score < MIN_SCORE or sum(ch.isalnum() for ch in text) < MIN_WORD_CHARS:
            continue
        xs = [float(p[0]) / scale for p in points]
        ys = [float(p[1]) / scale for p in points]
        blocks.append(Block(text.strip(), (min(xs), min(ys), max(xs), max(ys))))
    blocks.sort(key=lambda b: (round(b.box[1] / 8), b.box[0]))
    return blocks


def read_image(
    path: Path, progress: PhaseProgress | None = None, cancel: Cancel | None = None
) -> ReadResult:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as source:
            source.load()
            image = source.copy()
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise DocumentImportError("corrupt", f"image not readable: {type(exc).__name__}") from exc
    if progress:
        progress(0, 1, "ocr")
    blocks = ocr_image(image)
    if progress:
        progress(1, 1, "ocr")
    # boxes: the viewer shows the image itself, so pixels of the image are its "points"
    return ReadResult("image", [PageText(1, blocks)], 1, ocr=True)
