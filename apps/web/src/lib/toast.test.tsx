import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from '../components/ui/dialog';
import { Toaster } from '../components/ui/toast';
import { clearToasts, toast } from './toast';

afterEach(() => {
  act(() => {
    clearToasts();
  });
  vi.useRealTimers();
});

describe('toasts', () => {
  it('last 5000 ms by default and 3000 ms when asked', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast.error('很抱歉，资源未找到');
      toast.success('添加成功', 3000);
    });
    expect(screen.getByRole('alert')).toHaveTextContent('很抱歉，资源未找到');
    expect(screen.getByRole('status')).toHaveTextContent('添加成功');
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('are closable', async () => {
    render(<Toaster />);
    act(() => {
      toast.error('系统内部异常，请联系网站管理员');
    });
    await userEvent.click(screen.getByRole('button', { name: '关闭通知' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stay read out and closable over an open dialog, and closing one leaves the dialog open', async () => {
    const onClose = vi.fn();
    render(
      <>
        <Dialog open onClose={onClose} title="扫描设置">
          <p>设置内容</p>
        </Dialog>
        <Toaster />
      </>,
    );
    await screen.findByRole('dialog', { name: '扫描设置' });
    act(() => {
      toast.success('已与扫描助手配对');
    });
    // Found by role: not hidden from assistive technology (a dialog hides the app's tree) and not inert.
    const shown = screen.getByRole('status');
    expect(shown).toHaveTextContent('已与扫描助手配对');
    expect(shown.closest('[inert], [aria-hidden="true"]')).toBeNull();
    await userEvent.click(within(shown).getByRole('button', { name: '关闭通知' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: '扫描设置' })).toBeInTheDocument();
  });
});
