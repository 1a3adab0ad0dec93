import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '@zhzy/api-client';
import {
  CHECK_LONG_SIDE,
  STEADY_CHECKS,
  checkFrame,
  greyOf,
  sameQuad,
  type AnchorQuad,
  type FrameHint,
} from '@zhzy/answer-card/photo/detect';
import { MESSAGES, ScanUploadErrorDataSchema } from '@zhzy/contracts';
import { zhCNScan } from '../../../i18n/zh-CN';
import { toast } from '../../../lib/toast';
import { createHostBatch, uploadHostPage } from '../api/host-scan';
import { readScannerState } from '../stores/scanner-settings';
import { sha256Hex } from '../utils/split-pages';

/** How often the live frame is checked, milliseconds (STEADY_CHECKS in a row make about a second). */
const CHECK_EVERY_MS = 300;
/** After a capture, the next sheet is taken only once the anchors are gone or moved by this share of the frame. */
const NEXT_SHEET_SHARE = 0.1;

export type CameraState = 'off' | 'starting' | 'live' | 'denied' | 'unavailable';

/** One photo on its way to the host: accepted as a page, or refused with the reason to retake it. */
export interface PhotoShot {
  key: string;
  url: string;
  status: 'uploading' | 'accepted' | 'refused' | 'failed';
  message: string | null;
}

export interface PhotoCaptureState {
  camera: CameraState;
  /** What the live frame needs; `taken` after a capture until the next sheet is in view. */
  hint: FrameHint | 'taken' | null;
  /** The anchors found in the last check, in the check frame's pixels, and that frame's size. */
  quad: AnchorQuad | null;
  frame: { width: number; height: number } | null;
  shots: PhotoShot[];
}

/**
 * 手机拍照 (issue #26, ADR 0060): the camera's live frame is checked a few times a second with the host's own limits;
 * the sheet is captured at full resolution when its four anchors hold still, and uploaded as a phone photo into one
 * host batch (bound to the homework the screen is bound to), where it is flattened or refused with the reason.
 */
export function usePhotoCapture(schoolYearId: string | null, homeworkId: string | null) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const batch = useRef<Promise<string | null> | null>(null);
  const shots = useRef<PhotoShot[]>([]);
  const steady = useRef<{ quad: AnchorQuad | null; count: number; armed: boolean; taken: AnchorQuad | null }>(
    {
      quad: null,
      count: 0,
      armed: true,
      taken: null,
    },
  );
  const mounted = useRef(true);
  const [state, setState] = useState<PhotoCaptureState>({
    camera: 'off',
    hint: null,
    quad: null,
    frame: null,
    shots: [],
  });

  const patch = useCallback((p: Partial<PhotoCaptureState>) => {
    if (mounted.current) setState((prev) => ({ ...prev, ...p, shots: [...shots.current] }));
  }, []);

  const updateShot = useCallback(
    (key: string, p: Partial<PhotoShot>) => {
      shots.current = shots.current.map((s) => (s.key === key ? { ...s, ...p } : s));
      patch({});
    },
    [patch],
  );

  const ensureBatch = useCallback(() => {
    batch.current ??= createHostBatch({
      schoolYearId,
      subjectTeacher: readScannerState().setting.subjectTeacher,
      source: 'upload',
      deviceName: zhCNScan.photo.title,
      homeworkId,
    }).then(
      (created) => created.batch.id,
      () => {
        batch.current = null; // the API client showed the host's message; the next photo tries again
        return null;
      },
    );
    return batch.current;
  }, [schoolYearId, homeworkId]);

  /** Uploads one photo (from the camera or the phone's own camera app) as a page of the batch. */
  const send = useCallback(
    async (blob: Blob) => {
      if (!schoolYearId) {
        toast.error(MESSAGES.scanNeedsYear);
        return;
      }
      const key = `shot-${Date.now()}-${shots.current.length}`;
      shots.current = [
        { key, url: URL.createObjectURL(blob), status: 'uploading', message: null },
        ...shots.current,
      ];
      patch({});
      const batchId = await ensureBatch();
      if (!batchId) {
        updateShot(key, { status: 'failed', message: MESSAGES.internal });
        return;
      }
      try {
        const sha256 = await sha256Hex(blob);
        await uploadHostPage(
          batchId,
          blob,
          { name: `IMG_${shots.current.length}.jpg`, photo: true, ...(sha256 ? { sha256 } : {}) },
          { silent: true },
        );
        updateShot(key, { status: 'accepted' });
      } catch (error) {
        const refused =
          isApiError(error) &&
          ScanUploadErrorDataSchema.safeParse(error.data).data?.uploadError === 'photoRefused';
        const message = isApiError(error) || error instanceof Error ? error.message : MESSAGES.internal;
        updateShot(key, { status: refused ? 'refused' : 'failed', message });
      }
    },
    [schoolYearId, ensureBatch, patch, updateShot],
  );

  /** Takes the camera's current frame at full resolution. */
  const capture = useCallback(async () => {
    const video = videoRef.current;
    if (!video || video.videoWidth === 0) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
    if (blob) await send(blob);
  }, [send]);

  const stop = useCallback(() => {
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    patch({ camera: 'off', hint: null, quad: null });
  }, [patch]);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      patch({ camera: 'unavailable' });
      return;
    }
    patch({ camera: 'starting' });
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 4096 }, height: { ideal: 3072 } },
      });
      if (!mounted.current) {
        for (const track of media.getTracks()) track.stop();
        return;
      }
      stream.current = media;
      steady.current = { quad: null, count: 0, armed: true, taken: null };
      if (videoRef.current) {
        videoRef.current.srcObject = media;
        await videoRef.current.play().catch(() => undefined);
      }
      patch({ camera: 'live', hint: 'noCard' });
    } catch (error) {
      const denied = error instanceof DOMException && /NotAllowed|Security/.test(error.name);
      patch({ camera: denied ? 'denied' : 'unavailable' });
    }
  }, [patch]);

  // The live check: a small copy of the frame a few times a second.
  useEffect(() => {
    if (state.camera !== 'live') return;
    const small = document.createElement('canvas');
    const context = small.getContext('2d', { willReadFrequently: true });
    const timer = window.setInterval(() => {
      const video = videoRef.current;
      if (!video || !context || video.readyState < 2 || video.videoWidth === 0) return;
      const scale = Math.min(1, CHECK_LONG_SIDE / Math.max(video.videoWidth, video.videoHeight));
      const width = Math.round(video.videoWidth * scale);
      const height = Math.round(video.videoHeight * scale);
      small.width = width;
      small.height = height;
      context.drawImage(video, 0, 0, width, height);
      const frame = greyOf(context.getImageData(0, 0, width, height).data, width, height);
      const check = checkFrame(frame);
      const s = steady.current;
      if (!s.armed) {
        const gone = !check.quad || !s.taken || !sameQuad(check.quad, s.taken, frame, NEXT_SHEET_SHARE);
        if (gone) s.armed = true;
      }
      let hint: PhotoCaptureState['hint'] = s.armed ? check.hint : 'taken';
      if (s.armed && check.hint === 'hold' && check.quad) {
        s.count = s.quad && sameQuad(s.quad, check.quad, frame) ? s.count + 1 : 1;
        if (s.count >= STEADY_CHECKS) {
          s.armed = false;
          s.taken = check.quad;
          s.count = 0;
          hint = 'taken';
          void capture();
        }
      } else s.count = 0;
      s.quad = check.quad;
      patch({ hint, quad: check.quad, frame: { width, height } });
    }, CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [state.camera, capture, patch]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      for (const track of stream.current?.getTracks() ?? []) track.stop();
      for (const s of shots.current) URL.revokeObjectURL(s.url);
    };
  }, []);

  return { state, videoRef, start, stop, capture, send };
}
