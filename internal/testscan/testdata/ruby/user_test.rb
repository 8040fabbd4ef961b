require "test_helper"

=begin
def test_in_block_comment
  assert false
end
=end

class UserTest < ActiveSupport::TestCase
  setup do
    @user = users(:ada)
  end

  test "is valid with an email" do
    assert @user.valid?
  end

  test "requires an email" do
    @user.email = nil
    refute @user.valid?
    assert_includes @user.errors[:email], "can't be blank"
  end

  def test_full_name
    assert_equal "Ada Lovelace", @user.full_name
  end

  def test_skipped
    skip "until the importer lands"
    assert_equal 3, @user.imports.count
  end

  def test_trivial
    assert true
    assert_equal 1, 1
    refute nil
  end

  def test_empty
  end

  def test_heredoc_and_percent_literals
    sql = <<-SQL
      SELECT * FROM users WHERE name = 'x' -- def test_in_heredoc; assert false
    SQL
    words = %w[assert refute flunk]
    assert_match(/SELECT/, sql)
    assert_equal 3, words.size unless ENV["CI"]
  end

  def helper_method
    assert_predicate @user, :persisted?
  end

  private

  def assert_admin(user)
    assert user.admin?, "#{user.name} is no admin"
  end
end

describe Account do
  it "must be active" do
    _(Account.new.active?).must_equal true
  end

  it "wont be frozen" do
    value(Account.new).wont_be :frozen?
  end
end
