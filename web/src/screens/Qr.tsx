import { useEffect, useState } from "preact/hooks";

/** A QR code as an image (the SEPA transfer's EPC069-12 text); the encoder loads only when
 * a QR is shown, so the first screen does not carry it. */
export function Qr({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import("qrcode")
      .then((qrcode) => qrcode.toDataURL(text, { errorCorrectionLevel: "M", margin: 2, width: 240 }))
      .then((url) => live && setSrc(url))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [text]);
  return src ? <img class="qr" src={src} alt={label} width={240} height={240} /> : null;
}
