import { useState, type ComponentType } from 'react';
import { Callout, FileInput, Spinner } from '@blueprintjs/core';
import { storage, KEYS } from '../../lib/storage';
import { TEXT } from '../../../domain/constants';
import type { FieldInputProps } from './types';

/** What a Files/Upload… call answers (server/services/files/routes.ts UploadedImage). */
interface UploadedImage { url: string; thumbnailUrl: string; key: string }

/**
 * Posts one image to a Files/Upload… call. Uploads go straight to REST as multipart/form-data in
 * the legacy field `file`, with the session's bearer token (docs/decisions.md "Administration:
 * files"), and answer the ABP envelope; the form then saves the `url` with the row.
 */
export async function uploadImage(method: string, file: File): Promise<UploadedImage> {
  const body = new FormData();
  body.append('file', file);
  const token = storage.get(KEYS.token);
  const res = await fetch(`/api/services/app/Files/${method}`, {
    method: 'POST', body, headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const envelope = await res.json().catch(() => null) as { result?: UploadedImage; error?: { message?: string } } | null;
  if (!res.ok || !envelope?.result) throw new Error(envelope?.error?.message || TEXT.genericError);
  return envelope.result;
}

/**
 * A form field holding an uploaded image's URL: a preview, and a file picker that uploads through
 * the given Files call (e.g. UploadCompanyLogoImage) and puts the answered URL in the field.
 */
export function imageInput(uploadMethod: string): ComponentType<FieldInputProps> {
  return function ImageField({ id, value, disabled, invalid, onChange, onBlur }: FieldInputProps) {
    const [busy, setBusy] = useState(false);
    const [error, setError] = useState<string | null>(null);
    const url = typeof value === 'string' && value ? value : null;
    const pick = async (file: File | undefined) => {
      if (!file) return;
      setBusy(true);
      setError(null);
      try {
        onChange((await uploadImage(uploadMethod, file)).url);
      } catch (e) {
        setError(e instanceof Error ? e.message : TEXT.genericError);
      } finally {
        setBusy(false);
        onBlur();
      }
    };
    return (
      <div className="resource-image">
        {url ? <img src={url} alt="" className="resource-image-preview" /> : <div className="resource-image-preview resource-image-none">No image</div>}
        <div className="resource-image-pick">
          <FileInput
            fill
            disabled={disabled || busy}
            text={busy ? 'Uploading…' : url ? 'Replace the image…' : 'Choose an image…'}
            buttonText="Browse"
            hasSelection={!!url}
            inputProps={{ id, accept: 'image/png,image/jpeg,image/webp', 'aria-invalid': invalid }}
            onInputChange={(e) => { void pick((e.target as HTMLInputElement).files?.[0]); (e.target as HTMLInputElement).value = ''; }}
          />
          {busy && <Spinner size={16} aria-label="Uploading" />}
        </div>
        {error && <Callout intent="danger" role="alert" compact>{error}</Callout>}
      </div>
    );
  };
}
