import { describe, it, expect, vi, beforeEach } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { LoginForm, type LoginFormProps } from './LoginForm';

type Case = { email: string; valid: boolean };

function renderForm(props: Partial<LoginFormProps> = {}): ReturnType<typeof render> {
  const onSubmit = vi.fn<(email: string) => Promise<void>>();
  return render(
    <Wrapper>
      <LoginForm onSubmit={onSubmit} {...props} />
      <p className="hint">Don't share your password. It's "secret" — it('x')</p>
    </Wrapper>,
  );
}

const Wrapper = ({ children }: { children: ReactNode }) => <div data-testid="wrap">{children}</div>;

describe('LoginForm', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('renders the fields', () => {
    renderForm();
    expect(screen.getByLabelText(/email/i)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Log in" })).toBeEnabled();
  });

  it('shows an error for a bad email', async () => {
    renderForm();
    await userEvent.type(screen.getByLabelText(/email/i), 'not-an-email');
    fireEvent.click(screen.getByRole('button'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent("isn't valid"));
  });

  it.each<Case>([
    { email: 'a@b.co', valid: true },
    { email: 'a@', valid: false },
  ])('validates $email', ({ email, valid }) => {
    const ratio = 4 / 2;
    expect(LoginForm.validate(email)).toBe(valid);
    expect(ratio).toBeGreaterThan(1);
  });

  describe('submitting', () => {
    it('calls onSubmit once', async () => {
      const onSubmit = vi.fn();
      render(<LoginForm onSubmit={onSubmit} />);
      await userEvent.click(screen.getByText('Log in'));
      expect(onSubmit).toHaveBeenCalledOnce();
    });

    it.skipIf(process.env.CI)('works offline', () => {
      expect(navigator.onLine).toBe(false);
    });

    it.concurrent('debounces', async () => {
      expect.soft(1 + 1).toBe(2);
    });

    it.fails('known bug: double submit', () => {
      expect(LoginForm.submits).toBe(1);
    });
  });
});
