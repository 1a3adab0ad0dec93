import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { clampOffset, cropToBlob, loadImage, regionFor } from '../../lib/image-crop';

const VIEW = 280;

export interface ImageCropLabels {
  title: string;
  hint: string;
  zoom: string;
  confirm: string;
  cancel: string;
  unreadable: string;
}

/**
 * Crops a chosen picture to a square in the browser (drag to move, slider to zoom) and resizes it to at most
 * `maxSize` pixels before it is uploaded. `round` previews an avatar's circle.
 */
export function ImageCropDialog({
  file,
  labels,
  maxSize,
  round = false,
  type = 'image/png',
  busy = false,
  onCancel,
  onConfirm,
}: {
  file: File | null;
  labels: ImageCropLabels;
  maxSize: number;
  round?: boolean;
  type?: 'image/png' | 'image/jpeg';
  busy?: boolean;
  onCancel: () => void;
  onConfirm: (blob: Blob) => void;
}) {
  const [img, setImg] = useState<HTMLImageElement | null>(null);
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);

  useEffect(() => {
    setImg(null);
    setFailed(false);
    setZoom(1);
    setOffset({ x: 0, y: 0 });
    if (!file) return;
    let live = true;
    loadImage(file).then(
      (i) => live && setImg(i),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [file]);

  const w = img?.naturalWidth ?? 1;
  const h = img?.naturalHeight ?? 1;
  // Screen pixels per image pixel at this zoom.
  const scale = (VIEW / Math.min(w, h)) * zoom;

  const onPointerDown = (e: PointerEvent) => {
    (e.target as Element).setPointerCapture?.(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, ox: offset.x, oy: offset.y };
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || !img) return;
    setOffset(
      clampOffset(w, h, zoom, {
        x: d.ox + (e.clientX - d.x) / scale,
        y: d.oy + (e.clientY - d.y) / scale,
      }),
    );
  };
  const onZoom = (z: number) => {
    setZoom(z);
    setOffset((o) => clampOffset(w, h, z, o));
  };
  const confirm = async () => {
    if (!img) return;
    onConfirm(await cropToBlob(img, regionFor(w, h, zoom, offset), maxSize, type));
  };

  return (
    <Dialog open={file !== null} onClose={onCancel} title={labels.title}>
      {failed ? (
        <p role="alert" className="text-sm text-red-600">
          {labels.unreadable}
        </p>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-500">{labels.hint}</p>
          <div
            className="relative mx-auto cursor-move touch-none overflow-hidden rounded-lg bg-slate-900"
            style={{ width: VIEW, height: VIEW }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => (drag.current = null)}
            onPointerCancel={() => (drag.current = null)}
            data-testid="crop-area"
          >
            {img && (
              <img
                src={img.src}
                alt=""
                draggable={false}
                className="pointer-events-none absolute max-w-none select-none"
                style={{
                  width: w * scale,
                  height: h * scale,
                  left: VIEW / 2 - (w / 2 - offset.x) * scale,
                  top: VIEW / 2 - (h / 2 - offset.y) * scale,
                }}
              />
            )}
            {round && (
              <div
                aria-hidden="true"
                className="pointer-events-none absolute inset-0 rounded-full shadow-[0_0_0_999px_rgba(15,23,42,0.55)]"
              />
            )}
          </div>
          <label className="flex items-center gap-3 text-sm text-slate-600">
            {labels.zoom}
            <input
              type="range"
              min={1}
              max={4}
              step={0.05}
              value={zoom}
              onChange={(e) => onZoom(Number(e.target.value))}
              className="flex-1 accent-blue-600"
            />
          </label>
        </div>
      )}
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          {labels.cancel}
        </Button>
        <Button disabled={!img} loading={busy} onClick={() => void confirm()}>
          {labels.confirm}
        </Button>
      </div>
    </Dialog>
  );
}
