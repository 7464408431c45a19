package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;
import org.junit.jupiter.api.Test;

/**
 * A result longer than a Java array holds: luaj fails with a {@link NegativeArraySizeException} (wrapped in a
 * {@code vm error} LuaError when a Lua function ran it), which takes a heap larger than the test JVM's to cause
 * for real ({@code s .. s} with a 1 GB {@code s}); here a global raises the same exception. Scripts and clients
 * see Lua's {@code not enough memory} in every place an error can be caught, never the Java exception.
 */
class ScriptAllocationFailureTest {
    private static LuaSandbox sandbox() {
        LuaSandbox sb = new LuaSandbox(() -> null);
        sb.setGlobal("huge", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw new NegativeArraySizeException("-2147483648");
            }
        });
        return sb;
    }

    private static Varargs run(String script) {
        return sandbox().compile(script.getBytes(StandardCharsets.UTF_8)).invoke(LuaValue.NONE);
    }

    @Test
    void theExceptionsOfAnAllocationThatCannotBeMadeAreRecognised() {
        assertThat(ScriptErrors.allocationFailure(new LuaError(new NegativeArraySizeException("-1")))).isTrue();
        assertThat(ScriptErrors.allocationFailure(new NegativeArraySizeException("-1"))).isTrue();
        assertThat(ScriptErrors.allocationFailure(new OutOfMemoryError())).isTrue();
        assertThat(ScriptErrors.allocationFailure(new LuaError("not a memory error"))).isFalse();
        assertThat(ScriptErrors.allocationFailure(new LuaError(new ArrayIndexOutOfBoundsException(3)))).isFalse();
    }

    @Test
    void pcallXpcallAndResumeHandNotEnoughMemoryToTheScript() {
        for (String script : new String[] {
            "local ok, e = pcall(function() return huge() end) return e",
            "local ok, e = pcall(huge) return e",
            "local ok, e = xpcall(function() return huge() end, function(m) return m end) return e",
            "local ok, e = coroutine.resume(coroutine.create(function() return huge() end)) return e"}) {
            assertThat(run(script).arg1().tojstring()).as(script).isEqualTo(ScriptMemory.NOT_ENOUGH_MEMORY);
        }
    }

    @Test
    void anUncaughtOneIsRecognisedByTheRunner() {
        assertThatThrownBy(() -> run("return #(huge() .. 'x')"))
                .isInstanceOfSatisfying(LuaError.class, e -> assertThat(ScriptErrors.allocationFailure(e)).isTrue());
    }
}
