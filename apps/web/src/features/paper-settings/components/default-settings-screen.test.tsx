import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaperSettingsSchema, type PaperSettings } from '@zhzy/contracts';
import { Toaster } from '../../../components/ui/toast';
import { composition } from '../../../i18n/composition';
import { clearToasts } from '../../../lib/toast';
import { fakeHost, ok, signInAs } from '../../../testing/fake-host';
import { DefaultSettingsScreen } from './default-settings-screen';

const s = composition.paperset;

afterEach(() => {
  clearToasts();
  vi.unstubAllGlobals();
});

function host(saved: PaperSettings | null) {
  const puts: unknown[] = [];
  const fake = fakeHost({
    'GET /teacher/paper/setting-defaults': () =>
      ok({ settings: saved ?? PaperSettingsSchema.parse({}), saved: saved !== null }),
    'PUT /teacher/paper/setting-defaults': (req) => {
      puts.push(req.body);
      return ok({ settings: PaperSettingsSchema.parse(req.body), saved: true });
    },
    // No paper yet: the preview shows its empty state.
    'GET /teacher/paper/mine': () => ok({ records: [], total: 0, page: 1, size: 1 }),
  });
  return { puts, ...fake };
}

function renderScreen() {
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <DefaultSettingsScreen />
      <Toaster />
    </SWRConfig>,
  );
}

describe('试题设置: the teacher’s default paper settings', () => {
  it('shows the defaults the host keeps, and saves a change to the host', async () => {
    signInAs();
    const { puts } = host(PaperSettingsSchema.parse({ sealingLine: true }));
    renderScreen();
    const sealing = await screen.findByRole('checkbox', { name: s.sealingLine });
    await waitFor(() => expect(sealing).toBeChecked());
    const save = screen.getByRole('button', { name: s.saveDefaults });
    expect(save).toBeDisabled();

    await userEvent.click(sealing);
    expect(save).toBeEnabled();
    await userEvent.click(save);
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ sealingLine: false });
    expect(await screen.findByText(s.defaultsSaved)).toBeInTheDocument();
    await waitFor(() => expect(save).toBeDisabled());
  });
});
