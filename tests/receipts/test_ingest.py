"""Ingest through the routes: the real type sniffed, metadata gone, bad files FAILED and
nothing of them kept, completing twice harmless."""
from __future__ import annotations

import io
import time

from PIL import Image

from app import blobs
from app.receipts import images as receipt_images
from tests.receipts import images
from tests.receipts.conftest import objects, s3


def _object(group, receipt_id, name):
    return s3().get_object(Bucket=blobs.bucket(),
                                     Key=blobs.key(group.group_id, receipt_id, name))["Body"].read()


def test_a_photo_becomes_ready_without_exif_or_gps_and_upright(group):
    photo = images.receipt(orientation=6)
    assert images.has_exif(photo)
    receipt_id = group.upload(photo)
    reply = group.complete(receipt_id)
    assert reply.status_code == 202
    body = group.get(receipt_id)
    assert body["status"] == "READY", body
    assert body["imageUrl"] and body["thumbnailUrl"]
    kept = _object(group, receipt_id, blobs.IMAGE)
    assert not images.has_exif(kept)
    with Image.open(io.BytesIO(kept)) as image:
        assert image.format == "JPEG" and image.size == (700, 900)  # orientation 6 applied
        assert "icc_profile" not in image.info
    with Image.open(io.BytesIO(_object(group, receipt_id, blobs.THUMBNAIL))) as thumb:
        assert max(thumb.size) <= receipt_images.THUMBNAIL_SIDE
    # The original is replaced: only the clean image and the thumbnail are left.
    assert objects(receipt_id) == sorted([blobs.key(group.group_id, receipt_id, blobs.IMAGE),
                                          blobs.key(group.group_id, receipt_id, blobs.THUMBNAIL)])


def test_completing_twice_is_harmless(group):
    receipt_id = group.upload(images.receipt())
    assert group.complete(receipt_id).status_code == 202
    again = group.complete(receipt_id)
    assert again.status_code == 202 and again.get_json()["status"] == "READY"


def test_the_real_type_is_sniffed_not_the_declared_one(group):
    png = images.receipt(fmt="PNG")
    receipt_id = group.upload(png, "image/jpeg")
    group.complete(receipt_id)
    assert group.get(receipt_id)["status"] == "READY"
    assert not images.has_exif(_object(group, receipt_id, blobs.IMAGE))


def _failed(group, data, content_type="image/jpeg", **kwargs) -> dict:
    receipt_id = group.upload(data, content_type, **kwargs)
    assert group.complete(receipt_id).status_code == 202
    body = group.get(receipt_id)
    assert body["status"] == "FAILED", body
    assert "imageUrl" not in body and "thumbnailUrl" not in body
    assert objects(receipt_id) == []  # nothing of a bad file is kept
    return body


def test_a_text_file_is_refused_whatever_it_claims(group):
    assert _failed(group, b"hello, not an image " * 50)["reason"] == "UNSUPPORTED_TYPE"


def test_a_pdf_that_is_no_pdf_is_corrupt_and_says_so(group):
    body = _failed(group, b"%PDF-1.7\n" + b"0" * 500, "application/pdf")
    assert body["reason"] == "CORRUPT" and "PDF" in body["reasonMessage"]


def test_a_decompression_bomb_fails_and_never_crashes(group):
    bomb = io.BytesIO()
    Image.new("1", (12_000, 12_000)).save(bomb, "PNG")  # 144 MP in ~20 KB
    assert len(bomb.getvalue()) < 100_000
    assert _failed(group, bomb.getvalue(), "image/png")["reason"] == "TOO_MANY_PIXELS"


def test_a_scan_bomb_is_refused_before_it_is_decoded(group):
    """4,000 copies of a few-byte refinement scan: each is a pass over 4 MP for the decoder
    (seconds of CPU in all), so a refusal that costs this thread under a second of CPU, the
    upload, the complete and moto included, was made without decoding."""
    bomb = images.progressive(copies=4000)
    assert len(bomb) < 100_000
    receipt_id = group.upload(bomb)
    spent = time.thread_time()
    assert group.complete(receipt_id).status_code == 202  # ingest runs inline in tests
    spent = time.thread_time() - spent
    body = group.get(receipt_id)
    assert body["status"] == "FAILED" and body["reason"] == "TOO_COMPLEX", body
    assert "100 scans" in body["reasonMessage"]
    assert objects(receipt_id) == []
    assert spent < 1.0, spent


def test_a_decode_past_its_cpu_budget_fails_cleanly(group, monkeypatch):
    """Under the scan cap (10 + 90 scans) but over a budget lowered to 20 ms: the reader
    that feeds the decoder refuses once the budget is spent, and the receipt fails."""
    monkeypatch.setattr(receipt_images, "DECODE_CPU_SECONDS", 0.02)
    # The copies come before the picture's 11 KB DC refinement scan: the decoder asks for
    # more input after spending ~0.2 s on them.
    body = _failed(group, images.progressive(copies=90, scan=5))
    assert body["reason"] == "TOO_COMPLEX" and "to decode" in body["reasonMessage"], body


def test_progressive_photos_still_ingest(group):
    """Pillow's own progressive JPEG (10 scans) and one at the cap (100 scans)."""
    for photo in (images.receipt(progressive=True), images.progressive(copies=90)):
        receipt_id = group.upload(photo)
        group.complete(receipt_id)
        assert group.get(receipt_id)["status"] == "READY"


def test_a_truncated_image_is_corrupt(group):
    photo = images.receipt()
    assert _failed(group, photo[: len(photo) // 2])["reason"] == "CORRUPT"


def test_more_than_declared_is_too_large(group):
    photo = images.receipt()
    assert _failed(group, photo, declared=len(photo) - 1)["reason"] == "TOO_LARGE"


def test_complete_without_an_upload_fails(group):
    reply = group.start()
    receipt_id = reply.get_json()["receiptId"]
    group.complete(receipt_id)
    assert group.get(receipt_id)["reason"] == "NOT_UPLOADED"


def test_heic_is_converted_to_jpeg(group):
    import pillow_heif

    pillow_heif.register_heif_opener()
    heic = io.BytesIO()
    Image.open(io.BytesIO(images.receipt(fmt="PNG"))).save(heic, "HEIF")
    receipt_id = group.upload(heic.getvalue(), "image/heic")
    group.complete(receipt_id)
    assert group.get(receipt_id)["status"] == "READY"
    with Image.open(io.BytesIO(_object(group, receipt_id, blobs.IMAGE))) as image:
        assert image.format == "JPEG"


def test_declared_type_and_size_are_checked_up_front(group):
    assert group.start("image/gif").status_code == 400
    assert group.start(size=10 * 1024 * 1024 + 1).status_code == 400
    assert group.start(size=0).status_code == 400
