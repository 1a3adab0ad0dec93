import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SearchForm } from './search-form';

/** A list screen's keyword: what the form searched last, shown as the screen would. */
function Screen({ active }: { active?: boolean }) {
  const [keyword, setKeyword] = useState('');
  const [searches, setSearches] = useState(0);
  return (
    <>
      <SearchForm
        label="搜索试卷"
        placeholder="输入试卷名称"
        submit="搜索"
        maxLength={50}
        active={active ? keyword : undefined}
        onSearch={(k) => {
          setKeyword(k);
          setSearches((n) => n + 1);
        }}
      />
      <p>{`关键词：${keyword}；第${searches}次`}</p>
    </>
  );
}

describe('SearchForm', () => {
  it('searches the trimmed text with the button or Enter', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    const field = screen.getByRole('searchbox', { name: '搜索试卷' });
    expect(field).toHaveAttribute('placeholder', '输入试卷名称');
    expect(field).toHaveAttribute('maxLength', '50');
    expect(screen.getByRole('search')).toContainElement(field);

    await user.type(field, '  期中  ');
    expect(screen.getByText('关键词：；第0次')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '搜索' }));
    expect(screen.getByText('关键词：期中；第1次')).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, '期末{Enter}');
    expect(screen.getByText('关键词：期末；第2次')).toBeInTheDocument();
  });

  it('emptying the field clears a keyword in force at once, only when one is in force', async () => {
    const user = userEvent.setup();
    render(<Screen active />);
    const field = screen.getByRole('searchbox', { name: '搜索试卷' });
    await user.type(field, '期中{Enter}');
    expect(screen.getByText('关键词：期中；第1次')).toBeInTheDocument();
    await user.clear(field);
    expect(screen.getByText('关键词：；第2次')).toBeInTheDocument();
    await user.type(field, 'a');
    await user.clear(field);
    expect(screen.getByText('关键词：；第2次')).toBeInTheDocument();
  });

  it('without a keyword in force, emptying the field searches nothing', async () => {
    const user = userEvent.setup();
    render(<Screen />);
    const field = screen.getByRole('searchbox', { name: '搜索试卷' });
    await user.type(field, '期中{Enter}');
    await user.clear(field);
    expect(screen.getByText('关键词：期中；第1次')).toBeInTheDocument();
  });
});
