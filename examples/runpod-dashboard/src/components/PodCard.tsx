import { useState } from 'react';

const REST = 'https://rest.runpod.io/v1';

export function PodCard({ podId, apiKey }: { podId: string; apiKey: string }) {
  const [busy, setBusy] = useState(false);

  async function stop() {
    setBusy(true);
    await fetch(`${REST}/pods/${podId}/stop`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    setBusy(false);
  }

  return (
    <div className="pod-card">
      <span>{podId}</span>
      <button disabled={busy} onClick={stop}>
        Stop
      </button>
    </div>
  );
}
