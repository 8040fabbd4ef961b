package com.example.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.mockito.Mockito.*;

import java.math.BigDecimal;
import java.nio.file.Path;
import org.junit.jupiter.api.*;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tests for {@link AccountService}. A javadoc with @Test and assertTrue(false).
 */
@DisplayName("Account service")
class AccountServiceTest {

    private final Ledger ledger = mock(Ledger.class);
    private AccountService service;

    @TempDir
    Path tmp;

    @BeforeEach
    void setUp() {
        service = new AccountService(ledger);
        assertNotNull(service);
    }

    @Test
    void depositIncreasesBalance() {
        service.deposit("acc-1", new BigDecimal("10.00"));
        assertEquals(new BigDecimal("10.00"), service.balance("acc-1"));
        verify(ledger).record(any());
    }

    @Test
    @DisplayName("withdrawing too much fails")
    void withdrawTooMuch() {
        String msg = "assertEquals(1, 2); // @Test";
        char q = '"';
        InsufficientFundsException e = assertThrows(InsufficientFundsException.class,
            () -> service.withdraw("acc-1", BigDecimal.TEN));
        assertThat(e.getMessage()).contains("acc-1");
    }

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource({"1, 1, 2", "2, 3, 5"})
    void addsAmounts(int a, int b, int sum) {
        assertAll(
            () -> assertEquals(sum, service.add(a, b)),
            () -> assertTrue(sum >= a));
    }

    @Test
    @Disabled("flaky until LEDGER-42 is fixed")
    void transferIsAtomic() {
        assertTrue(service.transfer("a", "b", BigDecimal.ONE));
    }

    @RepeatedTest(3)
    void statementIsStable(@TempDir Path dir) {
        String text = """
            @Test void notATest() { assertTrue(false); }
            """;
        assertThat(service.statement("acc-1", dir)).isNotEmpty();
    }

    @Test
    void onlyOnCi() {
        assumeTrue(System.getenv("CI") != null);
        assertFalse(service.isLocked("acc-1"));
    }

    @Test
    void alwaysSkipped() {
        assumeTrue(false, "not implemented");
        fail("unreachable");
    }

    @Test
    void trivial() {
        assertTrue(true);
        assertEquals(1, 1);
        assertThat(true).isTrue();
    }

    @Test
    void empty() {
    }

    @Nested
    class WhenFrozen {
        @BeforeEach
        void freeze() {
            service.freeze("acc-1");
        }

        @Test
        void rejectsDeposits() {
            assertThrows(FrozenException.class, () -> service.deposit("acc-1", BigDecimal.ONE));
            verifyNoInteractions(ledger);
        }
    }

    @Nested
    @Disabled
    class Legacy {
        @Test
        void oldApi() {
            assertEquals(0, service.legacyCount());
        }
    }

    private void assertBalance(String account, String want) {
        assertEquals(new BigDecimal(want), service.balance(account));
    }
}
