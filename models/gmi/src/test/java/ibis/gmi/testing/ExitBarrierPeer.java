package ibis.gmi.testing;

import ibis.gmi.CombineReply;
import ibis.gmi.Group;
import ibis.gmi.GroupInvocation;
import ibis.gmi.GroupMethod;
import ibis.testsupport.PeerMain;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The role of {@code ExitBarrierTest}: a group of all processes, where only process 0 invokes.
 * Every other process calls {@link Group#exit()} as soon as it joined (says {@code EXITING} before,
 * {@code EXITED} after). Process 0 connects to the test's socket (port in {@code args[0]}) and
 * waits for its line, which the test sends once the others are done (gone, or waiting in their
 * exit); then it makes a group call combined by a flat sum and says {@code RESULT sum} (or
 * {@code RESULT exception}), and exits too.
 */
public final class ExitBarrierPeer implements PeerMain.Role {

    @Override
    public void run(String[] args) throws Exception {
        int me = Group.rank();
        int n = Group.size();
        PeerMain.say("RANK " + me);
        if (me == 0) {
            Group.create("exit-barrier", Calc.class, n);
        }
        Group.join("exit-barrier", new CalcMember());
        if (me != 0) {
            PeerMain.say("EXITING");
            Group.exit();
            PeerMain.say("EXITED");
            return;
        }
        Calc g = (Calc) Group.lookup("exit-barrier");
        GroupMethod m = Group.findMethod(g, "int rankTimes(int)");
        m.configure(new GroupInvocation(), new CombineReply(new Combiners.Sum()));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]));
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                        StandardCharsets.UTF_8))) {
            PeerMain.say("WAITING " + in.readLine());
        }
        String result;
        try {
            result = Integer.toString(g.rankTimes(1));
        } catch (RuntimeException e) {
            result = e.toString();
        }
        PeerMain.say("RESULT " + result);
        Group.exit();
        PeerMain.say("EXITED");
    }
}
