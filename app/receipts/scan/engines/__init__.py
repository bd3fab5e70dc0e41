"""One module per engine, each ``scan(image_jpeg, hints, settings) -> ScanResult``; the
package's scan_receipt imports only the one configured."""
