pragma solidity ^0.8.0;

interface IERC20 {
    function balanceOf(address a) external view returns (uint256);
}

contract Game {
    uint256 public deposits;
    IERC20 public token;

    function deposit() external payable {
        deposits += msg.value;
    }

    function finish() external {
        require(address(this).balance == deposits); // expect: strict-balance-equality
        payable(msg.sender).transfer(deposits);
    }

    function _settled() internal view returns (bool) {
        return token.balanceOf(address(this)) != 0; // expect: strict-balance-equality
    }

    function close() external view {
        require(_settled());
    }

    function solvent() external view returns (bool) {
        return address(this).balance >= deposits;
    }
}

contract Challenge {
    function isComplete() public view returns (bool) {
        return address(this).balance == 0;
    }
}
