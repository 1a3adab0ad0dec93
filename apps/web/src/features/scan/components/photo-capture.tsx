import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { LargeDialog } from '../../../components/ui/large-dialog';
import { zhCNScan as s } from '../../../i18n/zh-CN';
import { cn } from '../../../lib/utils';
import { usePhotoCapture, type PhotoCaptureState, type PhotoShot } from '../hooks/use-photo-capture';

const HINT_TONE: Record<NonNullable<PhotoCaptureState['hint']>, string> = {
  noCard: 'bg-slate-100 text-slate-700',
  tooSmall: 'bg-amber-100 text-amber-900',
  tooDark: 'bg-amber-100 text-amber-900',
  glare: 'bg-amber-100 text-amber-900',
  blurred: 'bg-amber-100 text-amber-900',
  hold: 'bg-blue-100 text-blue-900',
  taken: 'bg-emerald-100 text-emerald-900',
};

const SHOT_TONE: Record<PhotoShot['status'], string> = {
  uploading: 'text-slate-600',
  accepted: 'text-emerald-700',
  refused: 'text-red-700',
  failed: 'text-red-700',
};

/** The frame guide and the anchors found, drawn over the video in the check frame's pixels. */
function Overlay({ state }: { state: PhotoCaptureState }) {
  const { frame, quad, hint } = state;
  if (!frame) return null;
  // Where to put the sheet: an A4 portrait or landscape box filling most of the frame.
  const portrait = frame.height >= frame.width;
  const ratio = portrait ? 210 / 297 : 297 / 210;
  const h = Math.min(frame.height * 0.92, (frame.width * 0.92) / ratio);
  const w = h * ratio;
  const x = (frame.width - w) / 2;
  const y = (frame.height - h) / 2;
  const arm = Math.min(w, h) * 0.12;
  const corners = [
    `M${x},${y + arm} V${y} H${x + arm}`,
    `M${x + w - arm},${y} H${x + w} V${y + arm}`,
    `M${x + w},${y + h - arm} V${y + h} H${x + w - arm}`,
    `M${x + arm},${y + h} H${x} V${y + h - arm}`,
  ];
  const stroke = Math.max(2, frame.width / 240);
  return (
    <svg
      className="pointer-events-none absolute inset-0 h-full w-full"
      viewBox={`0 0 ${frame.width} ${frame.height}`}
      preserveAspectRatio="xMidYMid meet"
      aria-hidden="true"
    >
      {corners.map((d) => (
        <path key={d} d={d} fill="none" stroke="white" strokeOpacity={0.85} strokeWidth={stroke * 1.5} />
      ))}
      {quad && (
        <polygon
          data-testid="photo-quad"
          points={quad.corners.map((p) => `${p.x},${p.y}`).join(' ')}
          fill={hint === 'hold' || hint === 'taken' ? 'rgba(16,185,129,0.12)' : 'rgba(245,158,11,0.12)'}
          stroke={hint === 'hold' || hint === 'taken' ? '#10b981' : '#f59e0b'}
          strokeWidth={stroke}
        />
      )}
    </svg>
  );
}

/**
 * 手机拍照 (issue #26): a phone or a webcam instead of a scanner. The live frame is checked with the host's limits, the
 * sheet is taken by itself when its anchors hold still (or with 「拍照」), and each photo is accepted as a page or
 * refused at once with the reason, so the teacher retakes it on the spot.
 */
export function PhotoCapture({
  open,
  onClose,
  schoolYearId,
  homeworkId,
}: {
  open: boolean;
  onClose: () => void;
  schoolYearId: string | null;
  homeworkId: string | null;
}) {
  const { state, videoRef, start, stop, capture, send } = usePhotoCapture(schoolYearId, homeworkId);
  const fileInput = useRef<HTMLInputElement>(null);
  const { camera, hint, shots } = state;

  useEffect(() => {
    if (open) void start();
    else stop();
  }, [open, start, stop]);

  const accepted = shots.filter((x) => x.status === 'accepted').length;
  const refused = shots.filter((x) => x.status === 'refused').length;
  const close = () => {
    stop();
    onClose();
  };

  return (
    <LargeDialog
      open={open}
      onClose={close}
      width="xl"
      title={s.photo.title}
      lead={s.photo.lead}
      footer={
        <div className="flex items-center justify-between gap-3">
          <p className="text-sm text-slate-600" data-testid="photo-summary">
            {shots.length > 0 ? s.photo.summary(accepted, refused) : ''}
          </p>
          <Button onClick={close}>{s.photo.done}</Button>
        </div>
      }
    >
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_16rem]">
        <div className="space-y-3">
          <div className="relative overflow-hidden rounded-lg bg-slate-900">
            <video
              ref={videoRef}
              className="block max-h-[60vh] min-h-48 w-full object-contain"
              playsInline
              muted
              autoPlay
              aria-label={s.photo.videoLabel}
            />
            {camera === 'live' && <Overlay state={state} />}
            {camera !== 'live' && (
              <div className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-white">
                {camera === 'starting' && s.photo.starting}
                {camera === 'denied' && s.photo.denied}
                {camera === 'unavailable' && s.photo.unavailable}
              </div>
            )}
          </div>
          <p
            role="status"
            aria-live="polite"
            data-testid="photo-hint"
            className={cn(
              'rounded-md px-3 py-2 text-center text-base font-medium',
              hint ? HINT_TONE[hint] : 'bg-slate-100 text-slate-500',
            )}
          >
            {camera === 'live' && hint ? s.photo.hints[hint] : ' '}
          </p>
          {shots[0]?.status === 'refused' && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
              {s.photo.retake(shots.length, shots[0].message ?? '')}
            </p>
          )}
          <div className="flex flex-wrap justify-center gap-2">
            {camera === 'live' && <Button onClick={() => void capture()}>{s.photo.capture}</Button>}
            {(camera === 'denied' || camera === 'unavailable') && (
              <Button variant="secondary" onClick={() => void start()}>
                {s.photo.retry}
              </Button>
            )}
            <Button variant="secondary" onClick={() => fileInput.current?.click()}>
              {s.photo.cameraInput}
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept="image/jpeg,image/png"
              capture="environment"
              className="sr-only"
              aria-label={s.photo.cameraInput}
              data-testid="photo-file-input"
              onChange={(e) => {
                const files = [...(e.target.files ?? [])];
                e.target.value = '';
                void (async () => {
                  for (const f of files) await send(f);
                })();
              }}
            />
          </div>
        </div>
        <section aria-label={s.photo.shots} className="min-w-0">
          <h3 className="text-sm font-semibold text-slate-800">{s.photo.shots}</h3>
          <ul className="mt-2 grid max-h-[60vh] grid-cols-3 gap-2 overflow-y-auto lg:grid-cols-2">
            {shots.map((shot, i) => (
              <li key={shot.key} data-testid="photo-shot" data-status={shot.status} className="min-w-0">
                <img
                  src={shot.url}
                  alt={s.photo.shotLabel(shots.length - i)}
                  className="aspect-[3/4] w-full rounded border border-slate-200 bg-slate-50 object-cover"
                />
                <p className={cn('mt-1 text-xs font-medium', SHOT_TONE[shot.status])}>
                  {s.photo.shotLabel(shots.length - i)} · {s.photo.status[shot.status]}
                </p>
                {shot.message && <p className="text-xs text-red-700">{shot.message}</p>}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </LargeDialog>
  );
}
