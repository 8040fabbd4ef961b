# frozen_string_literal: true

require "rails_helper"

# it "is a comment" do expect(1).to eq(2) end

RSpec.describe Invoice, type: :model do
  subject(:invoice) { build(:invoice, lines: lines) }

  let(:lines) { [build(:line, amount: 10), build(:line, amount: 5)] }

  before do
    allow(TaxService).to receive(:rate).and_return(0.2)
  end

  describe "#total" do
    it "sums the lines" do
      expect(invoice.total).to eq(15)
    end

    it "applies tax", :aggregate_failures do
      expect(invoice.total_with_tax).to eq 18
      expect(invoice.tax).to be_within(0.01).of(3)
    end

    context "with no lines" do
      let(:lines) { [] }

      it { is_expected.to be_empty }
      it { should_not be_payable }
    end
  end

  describe "#to_csv" do
    it "renders a header" do
      csv = invoice.to_csv
      expect(csv).to start_with(<<~CSV.strip)
        id,amount,it "x" do
        CSV
      expect(csv.lines.count).to eq(3)
    end

    it "escapes quotes" do
      note = %q(she said "it's done" (twice))
      expect(invoice.escape(note)).to match(/\A"she said ""it's done""/)
    end

    it "handles interpolation" do
      expect("#{invoice.number} #{"nested #{1 + 1}"}").to include("2")
    end
  end

  describe "payment", skip: "gateway sandbox down" do
    it "charges the card" do
      expect(Gateway).to receive(:charge)
      invoice.pay!
    end
  end

  xit "emails the customer" do
    expect { invoice.deliver }.to change { ActionMailer::Base.deliveries.count }.by(1)
  end

  it "is not implemented yet"

  it "becomes overdue" do
    skip "needs time travel helpers"
    expect(invoice).to be_overdue
  end

  it "is pending while the rules settle" do
    pending("rounding rules") if ENV["STRICT"]
    expect(invoice.rounded_total).to eq(15)
  end

  it "always passes" do
    expect(true).to be(true)
    expect(1).to eq(1)
    expect(:ok).to be_truthy
  end

  it "does nothing" do
  end

  describe ".parse" do
    it "reads a number" do
      expect(described_class.parse("INV-1").number).to eq 1
    end
  end
end
