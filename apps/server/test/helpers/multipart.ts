/** A multipart body as a browser would send it; a Blob field is sent as the file `paper.docx`. */
export async function multipart(
  fields: Record<string, string | Blob>,
): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') form.append(k, v);
    else form.append(k, v, 'paper.docx');
  }
  const request = new Request('http://local/upload', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}
